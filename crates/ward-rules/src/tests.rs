use super::*;

const PACK_A: &str = r#"
pack {
  name     = "a"
  version  = "1.0.0"
  provider = "example/a"
  schema   = "checked"
}

resource "a_vm" {
  holds_data = false
  identity   = ["id", "ip", "mac"]
  on_update  = "in-place"
  free       = ["tags"]

  attribute "size" {
    impact = "interrupt"
    why    = "restarts"
  }
  attribute "disk" {
    impact = "in-place"
  }
  attribute "disk.size" {
    impact = "interrupt"
    why    = "the disk is resized offline"
  }
  attribute "nics.*.mac" {
    impact = "replace"
  }
}

resource "a_disk" {
  holds_data = true
}
"#;

fn pack_a() -> Knowledge {
    Knowledge::from_pack_sources(&[("a.hcl", PACK_A)]).unwrap()
}

fn path(s: &str) -> AttrPath {
    AttrPath::dotted(s)
}

fn target<'a>(t: &'a str, address: &'a str, module: Option<&'a str>) -> Target<'a> {
    Target {
        type_name: t,
        address,
        module,
        provider: "registry.terraform.io/example/a",
    }
}

#[test]
fn every_embedded_pack_loads() {
    let k = match Knowledge::builtin() {
        Ok(k) => k,
        Err(e) => panic!("a built-in pack is broken:\n{e}"),
    };
    if let Err(e) = k.load_all() {
        panic!("a built-in pack entry is broken:\n{e}");
    }
    // Every file in packs/ is embedded (build.rs lists the directory).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs");
    let files = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "hcl")
        })
        .count();
    assert_eq!(k.packs().len(), files);
    assert_eq!(embedded::EMBEDDED_PACKS.len(), files);
    for p in k.pack_details() {
        assert!(p.entries > 0, "pack {} has no entries", p.name);
    }
    for name in ["null", "random", "terraform", "local", "tls", "time"] {
        assert!(k.packs().iter().any(|p| p.name == name), "no {name} pack");
    }
    for t in [
        "null_resource",
        "terraform_data",
        "random_password",
        "local_file",
        "tls_private_key",
        "time_sleep",
    ] {
        assert!(k.classifies_type(t, None), "{t} is not classified");
    }
}

#[test]
fn the_lazy_builtin_reads_every_entry_as_the_whole_load_does() {
    let whole = match Knowledge::builtin_whole() {
        Ok(k) => k,
        Err(e) => panic!("a built-in pack is broken:\n{e}"),
    };
    let lazy = Knowledge::builtin().unwrap();
    // build.rs indexed every pack (none is read whole at run time).
    assert!(embedded::PACK_INDEX.iter().all(Option::is_some));
    assert_reads_as_the_whole_load(&lazy, &whole);
}

/// A type's rules are the same whether its lookup searched the sorted types (the first
/// [`SEARCH_FIRST`]) or went through the map made after them; a type no pack names has none
/// either way.
#[test]
fn a_type_is_found_the_same_before_and_after_the_index_is_made() {
    let k = Knowledge::builtin().unwrap();
    let lazy = k.lazy.as_ref().unwrap();
    let names: Vec<&str> = lazy.types.iter().map(|(t, _, _)| *t).collect();
    assert!(names.len() > SEARCH_FIRST, "{} types", names.len());
    let found = |t: &str| {
        k.rules_for(t)
            .map(|r| (r.type_name.clone(), r.line, r.selector.clone()))
            .collect::<Vec<_>>()
    };
    // A short run's lookups search the list: its start does not pay for the map.
    found(names[0]);
    assert!(
        lazy.index.get().is_none(),
        "the index is made on the first lookup"
    );
    let searched: Vec<_> = names.iter().map(|t| found(t)).collect();
    assert!(
        lazy.index.get().is_some(),
        "the index is made past the first lookups"
    );
    let indexed: Vec<_> = names.iter().map(|t| found(t)).collect();
    assert_eq!(searched, indexed);
    // Each type's rules are its own.
    for (t, rules) in names.iter().zip(&searched) {
        assert!(!rules.is_empty(), "{t}");
        assert!(rules.iter().all(|(name, _, _)| name == t), "{t}: {rules:?}");
    }
    assert!(found("no_such_type_in_any_pack").is_empty());
    assert!(found("").is_empty());
}

/// The lazy load gives every pack, type and rule (in order, with its rank) the whole load does.
fn assert_reads_as_the_whole_load(lazy: &Knowledge, whole: &Knowledge) {
    assert_eq!(lazy.pack_details(), whole.pack_details());
    lazy.load_all().unwrap();
    let (l, w) = (lazy.types(), whole.types());
    assert_eq!(l.len(), w.len());
    for (l, w) in l.iter().zip(&w) {
        assert_eq!(l, w);
        for r in &l.rules {
            assert_eq!(
                r.rank,
                w.rules[l.rules.iter().position(|x| x == r).unwrap()].rank
            );
        }
    }
}

/// Test packs with an index made the way build.rs makes the embedded packs' (a block opens at a
/// line starting `pack {` or `resource "` and ends at the next line that is `}`), for
/// [`Knowledge::builtin_from`]; the files named in `whole` are not indexed (read whole).
fn indexed(packs: &'static [(&'static str, &'static str)], whole: &[&str]) -> embedded::Sources {
    let mut index = Vec::new();
    let mut entries = Vec::new();
    for (i, (name, text)) in packs.iter().enumerate() {
        if whole.contains(name) {
            index.push(None);
            continue;
        }
        let (mut header, mut count, mut open, mut at) = (None, 0, None, 0);
        for (n, line) in text.split_inclusive('\n').enumerate() {
            if line.starts_with("pack {") {
                open = Some((None, at, n));
            } else if let Some(rest) = line.strip_prefix("resource \"") {
                open = Some((rest.split('"').next(), at, n));
            } else if line.trim_end() == "}" {
                if let Some((label, start, line)) = open.take() {
                    let block = embedded::Block {
                        start: u32::try_from(start).unwrap(),
                        end: u32::try_from(at + 1).unwrap(),
                        line: u32::try_from(line).unwrap(),
                    };
                    match label {
                        Some(t) => {
                            count += 1;
                            entries.push((t, i, block));
                        }
                        None => header = Some(block),
                    }
                }
            }
            at += line.len();
        }
        index.push(header.map(|block| embedded::Header {
            block,
            entries: count,
        }));
    }
    entries.sort_by_key(|(t, pack, b)| (*t, *pack, b.start));
    // The types back to back, as build.rs writes them (a type once per entry here).
    let mut names = String::new();
    let entries: Vec<embedded::Entry> = entries
        .into_iter()
        .map(|(t, pack, block)| {
            let from = u32::try_from(names.len()).unwrap();
            names.push_str(t);
            embedded::Entry {
                name: (from, u32::try_from(names.len()).unwrap()),
                pack: u32::try_from(pack).unwrap(),
                block,
            }
        })
        .collect();
    // Each test pack's text is its head (nothing deflated).
    let files: Vec<embedded::File> = packs
        .iter()
        .map(|(name, text)| embedded::File {
            name,
            head: text,
            deflated: &[],
            chunks: &[],
        })
        .collect();
    embedded::Sources {
        packs: Box::leak(files.into_boxed_slice()),
        index: Box::leak(index.into_boxed_slice()),
        entries: Box::leak(entries.into_boxed_slice()),
        names: names.leak(),
    }
}

/// Three packs: `b.hcl` read whole, `demo_disk` in all three (with three selectors) and
/// `demo_net` in two: what no embedded pack has today (each is indexed, each type in one).
const LAZY_PACKS: &[(&str, &str)] = &[
    (
        "a.hcl",
        "pack {\n  name     = \"a\"\n  version  = \"1.0.0\"\n  provider = \"example/a\"\n  schema   = \"checked\"\n}\n\nresource \"demo_disk\" {\n  holds_data = true\n}\n\nresource \"demo_net\" {\n  holds_data = false\n}\n",
    ),
    (
        "b.hcl",
        "pack {\n  name     = \"b\"\n  version  = \"1.0.0\"\n  provider = \"example/b\"\n  schema   = \"checked\"\n}\n\nresource \"demo_disk\" {\n  provider   = \"example/b\"\n  holds_data = false\n}\n\nresource \"demo_vm\" {\n  holds_data = false\n}\n",
    ),
    (
        "c.hcl",
        "pack {\n  name     = \"c\"\n  version  = \"1.0.0\"\n  provider = \"example/c\"\n  schema   = \"checked\"\n}\n\nresource \"demo_disk\" {\n  address    = \"demo_disk.scratch*\"\n  holds_data = false\n}\n\nresource \"demo_net\" {\n  provider   = \"example/c\"\n  holds_data = true\n}\n",
    ),
];

#[test]
fn a_lazy_load_with_a_pack_read_whole_and_types_in_several_packs_reads_as_the_whole_load() {
    let sources: Vec<(String, &str)> = LAZY_PACKS
        .iter()
        .map(|(name, text)| (pack_file(name), *text))
        .collect();
    let whole = Knowledge::from_pack_sources(&sources).unwrap();
    let lazy = Knowledge::builtin_from(indexed(LAZY_PACKS, &["b.hcl"])).unwrap();
    assert_eq!(
        lazy.lazy.as_ref().unwrap().types,
        vec![("demo_disk", 0, 2), ("demo_net", 2, 2)],
        "b.hcl is read whole, its types are not indexed"
    );
    // demo_disk: c's address rule first, then b's provider rule (read whole), then a's.
    let disk = lazy.show("demo_disk").unwrap();
    let packs: Vec<&str> = disk
        .rules
        .iter()
        .map(|r| match &r.origin {
            RuleOrigin::Pack { name, .. } => name.as_str(),
            RuleOrigin::User { file, .. } => file.as_str(),
        })
        .collect();
    assert_eq!(packs, ["c", "b", "a"]);
    assert_reads_as_the_whole_load(&lazy, &whole);
}

#[test]
fn a_lazy_load_refuses_two_entries_with_one_selector_and_two_packs_with_one_name() {
    const DUP: &[(&str, &str)] = &[
        ("a.hcl", "pack {\n  name     = \"a\"\n  version  = \"1.0.0\"\n  provider = \"example/a\"\n  schema   = \"checked\"\n}\n\nresource \"demo_disk\" {\n  holds_data = true\n}\n"),
        ("d.hcl", "pack {\n  name     = \"d\"\n  version  = \"1.0.0\"\n  provider = \"example/d\"\n  schema   = \"checked\"\n}\n\nresource \"demo_disk\" {\n  holds_data = false\n}\n"),
    ];
    let k = Knowledge::builtin_from(indexed(DUP, &[])).unwrap();
    let e = k.load_all().unwrap_err().to_string();
    assert!(
        e.contains("d.hcl") && e.contains("also defined in crates/ward-rules/packs/a.hcl (line 8)"),
        "{e}"
    );
    assert!(
        !k.classifies_type("demo_disk", None),
        "a type that does not load is unclassified"
    );
    const SAME_NAME: &[(&str, &str)] = &[
        (
            "a.hcl",
            "pack {\n  name     = \"a\"\n  version  = \"1.0.0\"\n  provider = \"example/a\"\n  schema   = \"checked\"\n}\n",
        ),
        (
            "a2.hcl",
            "pack {\n  name     = \"a\"\n  version  = \"2.0.0\"\n  provider = \"example/a\"\n  schema   = \"checked\"\n}\n",
        ),
    ];
    for whole in [&[][..], &["a2.hcl"][..]] {
        let e = Knowledge::builtin_from(indexed(SAME_NAME, whole))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("pack name `a` is already used by crates/ward-rules/packs/a.hcl"),
            "{e}"
        );
    }
}

/// A create may cost only where a rule for its type says more than free, or overwrites or
/// modifies: the packs' and a user's, narrowed or not; never for a type no rule names.
#[test]
fn a_create_may_cost_where_a_rule_for_its_type_says_so() {
    let mut k = Knowledge::builtin().unwrap();
    for (t, may) in [
        ("snowflake_execute", true),                 // on_create = "data-loss"
        ("aws_iam_user_group_membership", true),     // modifies
        ("alicloud_ecs_disk_default_kms_key", true), // overwrites
        ("aws_s3_bucket", false),                    // created free
        ("null_resource", false),
        ("no_such_type", false),
    ] {
        assert_eq!(k.create_may_cost(t), may, "{t}");
    }
    let user = UserRules::parse(
        "ward.hcl",
        r#"resource "null_resource" {
  module    = "module.m"
  on_create = "interrupt"
}
resource "aws_s3_bucket" {
  on_create = "none"
}"#,
    )
    .unwrap();
    k.add_user_rules(&user);
    assert!(k.create_may_cost("null_resource"));
    assert!(!k.create_may_cost("aws_s3_bucket"));
}

#[test]
fn the_lazy_builtin_reads_only_the_types_looked_up() {
    let k = Knowledge::builtin().unwrap();
    let read = |k: &Knowledge| {
        k.lazy
            .as_ref()
            .unwrap()
            .slots
            .iter()
            .filter(|s| s.get().is_some())
            .count()
    };
    assert_eq!(read(&k), 0);
    assert!(k.classifies_type("null_resource", None));
    assert!(!k.classifies_type("no_such_type", None));
    assert_eq!(read(&k), 1);
    // User rules come first, then the pack's entry.
    let mut k = k;
    k.load_user_str(
        "ward.hcl",
        "resource \"null_resource\" {\n  on_update = \"interrupt\"\n}\n",
    )
    .unwrap();
    let r = k.resolve(&target("null_resource", "null_resource.x", None));
    assert_eq!(r.rules().len(), 2);
    assert!(matches!(r.rules()[0].origin, RuleOrigin::User { .. }));
    assert!(matches!(r.rules()[1].origin, RuleOrigin::Pack { .. }));
}

#[test]
fn a_block_read_on_its_own_keeps_the_files_lines() {
    let text = "resource \"a_vm\" {\n  holds_data = maybe\n}\n";
    let origin = RuleOrigin::Pack {
        name: "a".into(),
        version: "1".into(),
    };
    let Err(e) = parse_pack_block("a.hcl", text, 40, &origin) else {
        panic!("a bad value loads");
    };
    assert_eq!((e.line, e.column), (Some(42), Some(16)), "{e}");
    let Ok(OneBlock::Resource(r)) =
        parse_pack_block("a.hcl", "resource \"a_vm\" {\n}\n", 9, &origin)
    else {
        panic!("a plain block does not load");
    };
    assert_eq!(r.line, 10);
}

/// The test provider's rules are not shipped knowledge: no pack names fakecloud, and its types
/// are classified only where its rule file (examples/rules/fakecloud.hcl) is loaded.
#[test]
fn the_test_provider_is_not_shipped_knowledge() {
    let k = Knowledge::builtin().unwrap();
    assert!(
        !k.packs().iter().any(|p| p.name.contains("fakecloud")),
        "{:?}",
        k.packs()
    );
    for p in k.pack_details() {
        assert!(!p.provider.contains("fakecloud"), "pack {}", p.name);
    }
    assert!(!k
        .types()
        .iter()
        .any(|t| t.type_name.starts_with("fakecloud_")));
}

#[test]
fn fakecloud_rule_file_matches_the_provider() {
    let mut k = Knowledge::builtin().unwrap();
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/rules/fakecloud.hcl");
    k.load_user_file(&file).unwrap();
    assert_eq!(k.user_files(), [file.display().to_string()]);
    let t = Target {
        type_name: "fakecloud_instance",
        address: "fakecloud_instance.web",
        module: None,
        provider: "registry.terraform.io/ward/fakecloud",
    };
    let r = k.resolve(&t);
    assert_eq!(
        r.attribute(&path("size")).unwrap().impact,
        Impact::Interrupt
    );
    assert_eq!(r.attribute(&path("tags.env")).unwrap().impact, Impact::Free);
    assert_eq!(r.attribute(&path("name")).unwrap().impact, Impact::InPlace);
    let ids: Vec<String> = r.identity().value.iter().map(|p| p.to_string()).collect();
    assert_eq!(ids, ["id", "ip", "mac"]);
    // Parsed once when the rule was read; the same paths either way.
    assert_eq!(r.identity_paths(), r.identity().value.as_slice());
    let vol = k.resolve(&Target {
        type_name: "fakecloud_volume",
        ..t
    });
    assert!(vol.holds_data().value);
    let bucket = k.resolve(&Target {
        type_name: "fakecloud_bucket",
        ..t
    });
    assert!(bucket.holds_data().value);
    assert_eq!(
        bucket.attribute(&path("force_destroy")).unwrap().impact,
        Impact::Free
    );
}

#[test]
fn defaults_apply_when_no_rule_answers() {
    let k = pack_a();
    let r = k.resolve(&target("a_disk", "a_disk.d", None));
    assert!(r.is_classified());
    let d = r.cost(Cost::OnDelete);
    assert_eq!(d.value, Impact::Replace);
    assert!(!d.stated);
    assert_eq!(d.rule.unwrap().to_string(), "a@1.0.0:a_disk");
    assert_eq!(r.cost(Cost::OnCreate).value, Impact::Free);
    assert_eq!(r.cost(Cost::OnUpdate).value, Impact::InPlace);
    assert_eq!(r.cost(Cost::OnReplace).value, Impact::Replace);
    let h = r.holds_data();
    assert!(h.value && h.stated);
    assert_eq!(
        r.identity()
            .value
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>(),
        ["id"]
    );
    assert_eq!(r.identity_paths(), r.identity().value.as_slice());
    assert!(r.access_rules().value.is_empty());
    assert!(r.attribute(&path("anything")).is_none());

    let none = k.resolve(&target("b_other", "b_other.x", None));
    assert!(!none.is_classified());
    assert!(none.entry().is_none());
    assert!(none.holds_data().rule.is_none());
}

#[test]
fn longest_pattern_decides_and_indices_are_ignored() {
    let k = pack_a();
    let r = k.resolve(&target("a_vm", "a_vm.v", None));
    let d = r.attribute(&path("disk.0.size")).unwrap();
    assert_eq!(d.impact, Impact::Interrupt);
    assert_eq!(d.rule.to_string(), "a@1.0.0:a_vm[disk.size]");
    assert_eq!(d.why.as_deref(), Some("the disk is resized offline"));
    let d = r.attribute(&path("disk.0.type")).unwrap();
    assert_eq!(d.impact, Impact::InPlace);
    assert_eq!(d.rule.to_string(), "a@1.0.0:a_vm[disk]");
    let d = r.attribute(&path("nics.0.primary.mac")).unwrap();
    assert_eq!(d.impact, Impact::Replace);
    assert_eq!(d.rule.attribute.as_deref(), Some("nics.*.mac"));
    assert_eq!(
        r.attribute(&path("tags.Name")).unwrap().impact,
        Impact::Free
    );
}

#[test]
fn a_whole_block_change_costs_at_least_what_its_insides_may_cost() {
    let k = pack_a();
    let r = k.resolve(&target("a_vm", "a_vm.v", None));
    // `nics` changed as a whole: no pattern covers it (default in-place), but `nics.*.mac`
    // lies inside and costs more.
    let d = r.attribute(&path("nics")).unwrap();
    assert_eq!(d.impact, Impact::Replace);
    // `disk` covers `disk`; `disk.size` inside raises it.
    let d = r.attribute(&path("disk")).unwrap();
    assert_eq!(d.impact, Impact::Interrupt);
    assert_eq!(d.rule.attribute.as_deref(), Some("disk.size"));
}

#[test]
fn user_rules_win_and_say_so() {
    let mut k = pack_a();
    k.load_user_str(
        "ward.hcl",
        r#"
resource "a_vm" {
  attribute "size" {
    impact = "in-place"
    why    = "our VMs resize live"
  }
}

resource "a_vm" {
  address    = "module.db.*"
  holds_data = true
}
"#,
    )
    .unwrap();
    let r = k.resolve(&target("a_vm", "a_vm.v", None));
    let d = r.attribute(&path("size")).unwrap();
    assert_eq!(d.impact, Impact::InPlace);
    assert_eq!(d.rule.to_string(), "ward.hcl:2:a_vm[size]");
    // Questions the user rule does not answer fall through to the pack.
    let d = r.attribute(&path("disk.size")).unwrap();
    assert_eq!(d.rule.to_string(), "a@1.0.0:a_vm[disk.size]");
    let h = r.holds_data();
    assert!(!h.value);
    assert_eq!(h.rule.unwrap().to_string(), "a@1.0.0:a_vm");
    // The address glob applies only inside module.db, and comes first there.
    let r = k.resolve(&target("a_vm", "module.db.a_vm.v", Some("module.db")));
    assert_eq!(
        r.rules()[0].selector.address.as_deref(),
        Some("module.db.*")
    );
    let h = r.holds_data();
    assert!(h.value);
    assert_eq!(h.rule.unwrap().to_string(), "ward.hcl:9:a_vm");
    assert_eq!(k.user_files(), ["ward.hcl"]);
}

#[test]
fn specificity_orders_user_rules() {
    let mut k = Knowledge::empty();
    k.load_user_str(
        "ward.hcl",
        r#"
resource "a_vm" {
  on_delete = "free"
}
resource "a_vm" {
  provider  = "example/a"
  on_delete = "in-place"
}
resource "a_vm" {
  module    = "module.db"
  on_delete = "interrupt"
}
resource "a_vm" {
  address   = "module.db.a_vm.main*"
  on_delete = "data-loss"
}
"#,
    )
    .unwrap();
    let cost = |address: &str, module: Option<&str>, provider: &str| {
        let t = Target {
            type_name: "a_vm",
            address,
            module,
            provider,
        };
        k.resolve(&t).cost(Cost::OnDelete).value
    };
    assert_eq!(
        cost("module.db.a_vm.main[0]", Some("module.db"), "example/a"),
        Impact::DataLoss
    );
    assert_eq!(
        cost(
            "module.db[\"eu\"].a_vm.x",
            Some("module.db[\"eu\"]"),
            "example/a"
        ),
        Impact::Interrupt
    );
    assert_eq!(
        cost(
            "module.db.module.inner.a_vm.x",
            Some("module.db.module.inner"),
            "example/a"
        ),
        Impact::InPlace
    );
    assert_eq!(
        cost("a_vm.x", None, "registry.terraform.io/example/a"),
        Impact::InPlace
    );
    assert_eq!(
        cost("a_vm.x", None, "registry.terraform.io/other/a"),
        Impact::Free
    );
}

#[test]
fn later_user_files_rank_below_earlier_ones() {
    let mut k = pack_a();
    k.load_user_str(
        "first.hcl",
        "resource \"a_vm\" {\n  on_delete = \"free\"\n}\n",
    )
    .unwrap();
    k.load_user_str(
        "second.hcl",
        "resource \"a_vm\" {\n  on_delete = \"interrupt\"\n}\n",
    )
    .unwrap();
    let r = k.resolve(&target("a_vm", "a_vm.v", None));
    let d = r.cost(Cost::OnDelete);
    assert_eq!(d.value, Impact::Free);
    assert_eq!(d.rule.unwrap().to_string(), "first.hcl:1:a_vm");
    assert_eq!(k.user_files(), ["first.hcl", "second.hcl"]);
}

#[test]
fn narrowed_rules_do_not_classify_a_whole_type() {
    let mut k = Knowledge::empty();
    k.load_user_str(
        "ward.hcl",
        "resource \"x_a\" {\n  module = \"module.m\"\n  holds_data = false\n}\nresource \"x_b\" {\n  provider = \"acme/x\"\n  holds_data = false\n}\nresource \"x_c\" {\n  holds_data = false\n}\n",
    )
    .unwrap();
    assert!(!k.classifies_type("x_a", Some("acme/x")));
    assert!(k.classifies_type("x_b", Some("registry.terraform.io/acme/x")));
    assert!(!k.classifies_type("x_b", Some("registry.terraform.io/other/x")));
    assert!(!k.classifies_type("x_b", None));
    assert!(k.classifies_type("x_c", None));
    assert!(!k.classifies_type("x_d", None));
}

#[test]
fn packs_must_not_overlap() {
    let other = PACK_A.replace("name     = \"a\"", "name     = \"b\"");
    let e =
        Knowledge::from_pack_sources(&[("a.hcl", PACK_A), ("b.hcl", other.as_str())]).unwrap_err();
    assert!(e.to_string().contains("is also defined in a.hcl"), "{e}");
    assert_eq!(e.file, "b.hcl");
    let e = Knowledge::from_pack_sources(&[("a.hcl", PACK_A), ("a2.hcl", PACK_A)]).unwrap_err();
    assert!(
        e.to_string()
            .contains("pack name `a` is already used by a.hcl"),
        "{e}"
    );
    // The same type for another provider is fine.
    let beta = "pack {\n name = \"b\"\n version = \"1\"\n provider = \"example/a-beta\"\n schema = \"checked\"\n}\nresource \"a_vm\" {\n  provider = \"example/a-beta\"\n}\n";
    let k = Knowledge::from_pack_sources(&[("a.hcl", PACK_A), ("b.hcl", beta)]).unwrap();
    assert_eq!(k.show("a_vm").unwrap().rules.len(), 2);
    // The provider-narrowed entry comes first.
    assert_eq!(
        k.show("a_vm").unwrap().rules[0]
            .selector
            .provider
            .as_deref(),
        Some("example/a-beta")
    );
}

#[test]
fn typos_get_a_suggestion() {
    let e = Knowledge::empty()
        .load_user_str("ward.hcl", "resource \"a_vm\" {\n  holds_dta = true\n}\n")
        .unwrap_err();
    assert_eq!(
        e.to_string().lines().next().unwrap(),
        "ward.hcl:2:3: unknown key `holds_dta` in `resource \"a_vm\"`"
    );
    assert!(e.help.unwrap().starts_with("did you mean `holds_data`?"));
    let e = Knowledge::empty()
        .load_user_str(
            "ward.hcl",
            "resource \"a_vm\" {\n  on_delete = \"dataloss\"\n}\n",
        )
        .unwrap_err();
    assert_eq!(e.help.as_deref(), Some("did you mean `data-loss`?"));
}

#[test]
fn a_rule_file_refuses_the_other_blocks_of_ward_hcl() {
    // A rule file is not a second reader of ward.hcl: every block ward-config reads (including
    // `plan`, which the old list of skipped blocks lacked) is refused, with where it belongs.
    for block in [
        "policy \"p\" {\n  anything = 1\n}\n",
        "guard \"g\" {}\n",
        "root \"r\" {}\n",
        "layer \"l\" {}\n",
        "drift {}\n",
        "check {}\n",
        "plan {}\n",
    ] {
        let text = format!("resource \"a_vm\" {{\n  holds_data = true\n}}\n{block}");
        let e = Knowledge::empty()
            .load_user_str("rules.hcl", &text)
            .unwrap_err();
        let ident = block.split([' ', '{']).next().unwrap();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(
            e.message
                .contains(&format!("unknown block `{ident}` in a rule file")),
            "{e}"
        );
        let help = e.help.clone().unwrap();
        assert!(
            help.contains("rule files hold only `resource` blocks")
                && help.contains("ward.hcl, which ward-config reads"),
            "{e}"
        );
    }
    // A typo of `resource` is still a did-you-mean.
    let e = Knowledge::empty()
        .load_user_str("rules.hcl", "resorce \"a_vm\" {}\n")
        .unwrap_err();
    assert!(e.help.unwrap().contains("did you mean `resource`?"));
}

#[test]
fn heredoc_strings_are_read() {
    let mut k = Knowledge::empty();
    k.load_user_str(
        "ward.hcl",
        "resource \"a_vm\" {\n  holds_data = false\n  rationale = <<-EOT\n    two\n    lines\n  EOT\n}\n",
    )
    .unwrap();
    assert_eq!(
        k.show("a_vm").unwrap().rules[0].rationale.as_deref(),
        Some("two\nlines\n")
    );
}

#[test]
fn types_listing_is_sorted_and_serializable() {
    let mut k = pack_a();
    k.load_user_str("ward.hcl", "resource \"a_vm\" {\n  holds_data = true\n}\n")
        .unwrap();
    let types = k.types();
    let names: Vec<&str> = types.iter().map(|t| t.type_name.as_str()).collect();
    assert_eq!(names, ["a_disk", "a_vm"]);
    let json = serde_json::to_value(&types[1]).unwrap();
    assert_eq!(json["rules"][0]["origin"]["kind"], "user");
    assert_eq!(json["rules"][1]["origin"]["kind"], "pack");
    assert_eq!(json["rules"][1]["attributes"][0]["pattern"], "tags");
    assert_eq!(json["rules"][1]["attributes"][0]["impact"], "free");
    assert_eq!(json["rules"][1]["attributes"][1]["why"], "restarts");
    assert!(k.show("nope").is_none());
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let mut k = Knowledge::empty();
    k.load_user_str(
        "ward.hcl",
        "\u{feff}resource \"a_vm\" {\n  holds_data = true\n}\n",
    )
    .unwrap();
    assert_eq!(k.show("a_vm").unwrap().rules[0].line, 1);
}

/// An attribute entry's reference (the one every decision by that entry cites) is the rule's
/// with the entry's pattern as its attribute, and differs from the rule's own by it.
#[test]
fn an_attribute_entrys_reference_is_the_rules_with_its_pattern() {
    let k = pack_a();
    let vm = &k.show("a_vm").unwrap().rules[0];
    let disk = vm
        .attributes
        .iter()
        .find(|a| a.pattern == "disk.size")
        .unwrap();
    assert_eq!(
        *disk.reference,
        RuleRef {
            attribute: Some("disk.size".to_string()),
            ..vm.rule_ref()
        }
    );
    assert_eq!(disk.reference.to_string(), "a@1.0.0:a_vm[disk.size]");
    assert_ne!(*disk.reference, vm.rule_ref());
    assert_eq!(vm.rule_ref().to_string(), "a@1.0.0:a_vm");
}

/// Sizes written as Kubernetes quantities compare as numbers; other strings do not.
#[test]
fn directions_read_quantities() {
    use serde_json::json;
    let d = Direction {
        decrease: Impact::Replace,
        increase: Impact::InPlace,
        unbounded: Vec::new(),
    };
    let moved = |a: serde_json::Value, b: serde_json::Value| d.moved(Some(&a), Some(&b));
    assert_eq!(moved(json!("10Gi"), json!("20Gi")), Moved::Increase);
    assert_eq!(moved(json!("20Gi"), json!("10Gi")), Moved::Decrease);
    assert_eq!(moved(json!("1Ti"), json!("1000Gi")), Moved::Decrease);
    assert_eq!(moved(json!("500M"), json!("1G")), Moved::Increase);
    assert_eq!(moved(json!("1.5Gi"), json!("1536Mi")), Moved::Increase);
    assert_eq!(moved(json!(" 7 "), json!("3")), Moved::Decrease);
    for s in ["600s", "P1M", "10 Gi", "Gi", "-5Gi", "1e3Gi", "5m", "ten"] {
        assert_eq!(moved(json!(s), json!("1Gi")), Moved::Unknown, "{s}");
    }
}

#[test]
fn when_selects_by_value_on_every_side_and_ranks_before_provider() {
    let mut k = Knowledge::empty();
    k.load_user_str(
        "w.hcl",
        "resource \"a_thing\" {\n  provider  = \"example/a\"\n  on_update = \"interrupt\"\n}\nresource \"a_thing\" {\n  when      = { kind = \"db-*\", tier = \"small\" }\n  on_update = \"in-place\"\n}\n",
    )
    .unwrap();
    let t = target("a_thing", "a_thing.x", None);
    let update = |values: &[(&str, Vec<Option<&str>>)]| {
        let values: Vec<(String, Vec<Option<String>>)> = values
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    v.iter().map(|s| s.map(str::to_string)).collect(),
                )
            })
            .collect();
        let get = move |name: &str| {
            values
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        k.resolve_values(&t, &get).cost(Cost::OnUpdate).value
    };
    // Both attributes match on every side: the `when` rule, ranked before `provider`.
    assert_eq!(
        update(&[
            ("kind", vec![Some("db-main")]),
            ("tier", vec![Some("small")])
        ]),
        Impact::InPlace
    );
    assert_eq!(
        update(&[
            ("kind", vec![Some("db-a"), Some("db-b")]),
            ("tier", vec![Some("small"), Some("small")])
        ]),
        Impact::InPlace
    );
    // One attribute missing, one side not matching, a side unknown, no side at all: not it.
    for values in [
        vec![("kind", vec![Some("db-main")])],
        vec![
            ("kind", vec![Some("db-a"), Some("web")]),
            ("tier", vec![Some("small"), Some("small")]),
        ],
        vec![
            ("kind", vec![Some("db-a"), None]),
            ("tier", vec![Some("small"), Some("small")]),
        ],
        vec![("kind", vec![]), ("tier", vec![Some("small")])],
        vec![
            ("kind", vec![Some("DB-main")]),
            ("tier", vec![Some("small")]),
        ],
    ] {
        assert_eq!(update(&values), Impact::Interrupt, "{values:?}");
    }
    // Without values (`resolve`), and for types seen without instances, a `when` rule does not
    // apply.
    assert_eq!(k.resolve(&t).cost(Cost::OnUpdate).value, Impact::Interrupt);
    let when_only = {
        let mut k = Knowledge::empty();
        k.load_user_str(
            "w.hcl",
            "resource \"b_thing\" {\n  when      = { kind = \"*\" }\n  on_update = \"in-place\"\n}\n",
        )
        .unwrap();
        k
    };
    assert!(!when_only.classifies_type("b_thing", None));
    assert!(!when_only
        .resolve(&target("b_thing", "b_thing.x", None))
        .is_classified());
}
