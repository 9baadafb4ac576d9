//! The Ansible play/task reader and the module-source rewriter never panic, and on generated
//! valid playbooks the reader keeps every task, its module, tags and retries.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use ward_repo::playbook::{read_playbook, PlaybookKind};

fn task() -> impl Strategy<Value = (String, Vec<String>, Option<u8>)> {
    (
        prop::sample::select(vec![
            "get_url",
            "ansible.builtin.uri",
            "ansible.posix.authorized_key",
            "lineinfile",
            "ansible.builtin.include_role",
        ]),
        prop::collection::vec("[a-z]{1,6}", 0..3),
        prop::option::of(0u8..10),
    )
        .prop_map(|(m, tags, retries)| (m.to_string(), tags, retries))
}

proptest! {
    #[test]
    fn any_text(s in "\\PC*") {
        let _ = read_playbook(&s, "site.yml");
        let _ = read_playbook(&s, "roles/r/tasks/main.yml");
        let _ = ward_repo::rewrite_local_sources(&s, |x| Some(format!("/c/{x}")));
    }

    #[test]
    fn rewriting_nothing_keeps_the_text(s in "(module \"[a-z]{1,4}\" \\{\n  source = \"(\\./|\\.\\./)?[a-z/]{0,8}\"\n\\}\n){0,3}") {
        prop_assert_eq!(ward_repo::rewrite_local_sources(&s, |_| None).unwrap(), s);
    }

    #[test]
    fn generated_playbooks(tasks in prop::collection::vec(task(), 0..6), name in "[a-z]{1,8}") {
        let mut y = format!("- name: {name}\n  hosts: all\n  tasks:\n");
        if tasks.is_empty() {
            y.push_str("    []\n");
        }
        for (m, tags, retries) in &tasks {
            y.push_str(&format!("    - name: t\n      {m}:\n        name: x\n"));
            if !tags.is_empty() {
                y.push_str(&format!("      tags: [{}]\n", tags.join(", ")));
            }
            if let Some(r) = retries {
                y.push_str(&format!("      retries: {r}\n"));
            }
        }
        let p = read_playbook(&y, "site.yml").unwrap().unwrap();
        prop_assert_eq!(p.kind, PlaybookKind::Playbook);
        let got = &p.plays[0].tasks;
        prop_assert_eq!(got.len(), tasks.len());
        for (t, (m, tags, retries)) in got.iter().zip(&tasks) {
            prop_assert_eq!(t.module.as_deref(), Some(m.as_str()));
            prop_assert_eq!(&t.tags, tags);
            prop_assert_eq!(t.keyword("retries").cloned().flatten(), retries.map(|r| r.to_string()));
        }
    }
}
