//! WARD-ANS-005: Secret passed with -e on a command line.

use super::prelude::*;

/// WARD-ANS-005's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans005,
    name: "ansible-secret-in-argv",
    title: "Secret passed with -e on a command line",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(19),
    doc: "A secret passed to `ansible-playbook` or `ansible` with `-e`/`--extra-vars` in a script (`*.sh`, `*.bash`), a Makefile (`Makefile`, `*.mk`) or a CI file (`.gitlab-ci.yml`, `.github/workflows/*`, `Jenkinsfile`, `.circleci/`, `.ci/`, ...) sits in argv, which every user of the host can read (`ps`, `/proc/PID/cmdline`), and often in CI logs. A variable counts as a secret when its name says so, or where its value comes from does: (1) its name holds a secret word (data with its source in crates/ward-check/src/ansible.rs: `password`, `passwd`, `passphrase`, `secret`, `token`, `credential` anywhere in a word; `pass`, `pwd`, `key`, `apikey`, `privatekey`, `sshkey`, `accesskey`, `secretkey` as whole words, so `keyboard` and `monkey` are not keys), unless its last word names where or which secret it is (`ssh_key_path`, `vault_password_file`, `key_name`, `aws_access_key_id`); (2) its value is a CI secret (`${{ secrets.NAME }}`), the output of a secret store's command (`vault kv get`, `vault read`, `ansible-vault view`, `aws secretsmanager get-secret-value`, `gcloud secrets versions access`, `az keyvault secret show`, `op read`, `sops -d`, ...), or a variable whose own name says it is a secret (`$DB_PASSWORD`). A value from any other variable (`images_dir=$IMAGES_DIR`), a positional argument (`$1`) or a literal is not a secret by itself. A Jinja expression (`{{ lookup('hashi_vault', ...) }}`, `{{ lookup('env', 'X') }}`) is never flagged: Ansible evaluates it, argv holds only the expression. `-e @file` is not flagged. The finding names the variable and says truly where its value comes from (the variable `$NAME`, the script's positional argument `$1`, a literal written in the file, a CI secret, a secret store), never the value.",
    fix: "Pass the secret through a file (`-e @vars.yml` written with mode 0600, or Ansible Vault), the environment read with `lookup('env', ...)`, or a lookup of the secret store.",
    waive: "",
    fails: &[
        Example {
            path: ".github/workflows/converge.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/fail/.github/workflows/converge.yml"),
        },
        Example {
            path: "Makefile",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/fail/Makefile"),
        },
        Example {
            path: "scripts/converge.sh",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/fail/scripts/converge.sh"),
        },
    ],
    passes: &[
        Example {
            path: ".github/workflows/converge.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/pass/.github/workflows/converge.yml"),
        },
        Example {
            path: "Makefile",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/pass/Makefile"),
        },
        Example {
            path: "scripts/converge.sh",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/pass/scripts/converge.sh"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Secrets passed with `-e` on command lines of scripts, Makefiles and CI files (the shell
/// splitting and the secret words are in [`crate::ansible`]).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    crate::ansible::extra_var_secrets(cx.repo, &mut cx.out);
    Ok(())
}
