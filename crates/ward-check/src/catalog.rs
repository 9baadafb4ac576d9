//! The rule catalog: every rule ward check runs, with its ID, default severity and documentation.
//! `docs/check-rules.md` is generated from it ([`render_markdown`]); a test fails when it is stale.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails unless `--fail-on info`.
    Info,
    /// Should be fixed; fails with `--fail-on warning`.
    Warning,
    /// Fails the run by default.
    Error,
}

impl Severity {
    /// The lowercase word.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Severity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "info" => Ok(Severity::Info),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            other => Err(format!(
                "unknown severity \"{other}\": use error, warning or info"
            )),
        }
    }
}

/// One rule of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// Stable ID, e.g. `WARD-MOD-001`.
    pub id: &'static str,
    /// A short title.
    pub title: &'static str,
    /// Default severity (`ward.hcl` `check { rule "ID" { severity = ... } }` changes it).
    pub severity: Severity,
    /// Why the rule exists and which failure it prevents.
    pub doc: &'static str,
    /// Whether it only runs with a flag (`--exec`).
    pub opt_in: Option<&'static str>,
}

macro_rules! rule {
    ($id:literal, $sev:ident, $title:literal, $doc:literal) => {
        Rule {
            id: $id,
            title: $title,
            severity: Severity::$sev,
            doc: $doc,
            opt_in: None,
        }
    };
    ($id:literal, $sev:ident, $title:literal, $doc:literal, $flag:literal) => {
        Rule {
            id: $id,
            title: $title,
            severity: Severity::$sev,
            doc: $doc,
            opt_in: Some($flag),
        }
    };
}

/// Every rule, in ID order.
pub const RULES: &[Rule] = &[
    rule!("WARD-ANS-001", Error, "Ansible version disagrees with the Terraform release",
        "A release is one version across every layer: the Ansible collection in `requirements.yml`, the collection's own `galaxy.yml`, the inventory variable that names the release and every `?ref=` or `version` of the Terraform modules from the same release must name the same vX.Y.Z. When they disagree, hosts are configured by one release while the infrastructure comes from another, and nothing fails until the two meet at run time. Which names belong to one release is declared in `ward.hcl` with `check { release \"name\" { module_sources, collections, variables } }`; the rule reports every version found for the release, with file and line."),
    rule!("WARD-ANS-002", Error, "Ansible dependency at `latest` or without a version",
        "A collection or role in `requirements.yml` without a version (or at `latest`), and a `*_version` variable set to `latest`, install whatever was published last: two runs a day apart configure hosts differently and nobody decided it. Pin an exact version. A file that pins none of its dependencies (two or more) is one cause: one finding at its first entry lists them all."),
    rule!("WARD-ANS-003", Error, "Ansible fetch that fails the converge on one failed try",
        "A `get_url` or `uri` task (also spelled `ansible.builtin.get_url`, `ansible.builtin.uri`) must retry: one fetch that fails on a slow mirror fails the whole converge, once behind an approval gate that then had to be passed again. The rule requires (1) a retry story: `until` or `retries` (Ansible's defaults then apply: 3 retries, 5 seconds apart; without `until`, `retries` retries until the task succeeds since ansible-core 2.16, and does nothing before), with `retries` at least `min_retries` and `delay` at least `min_delay` where they are written; (2) each try bounded: `timeout` (the module argument, the task keyword, or the play's `module_defaults` for the module) at most `max_timeout`; a task that sets none is bounded by the module's own default, 10 s for get_url and 30 s for uri (ansible-core's module documentation), which is within the default limit. A task whose failure does not fail the converge (`ignore_errors: true`, `failed_when: false`) and Molecule's verifier playbooks (`molecule/<scenario>/verify.yml`, tests run after the converge) are not checked. The thresholds are settings of the rule: `check { rule \"WARD-ANS-003\" { max_timeout = 60, min_retries = 3, min_delay = 1 } }` (seconds, tries, seconds; those are the defaults); a templated value (`{{ ... }}`) is accepted as set."),
    rule!("WARD-ANS-004", Error, "Ansible guard can be skipped or does not run first",
        "A guard is a role or task that must run before anything else in a play (a preflight check, a liveness assertion). Declare them with `check { rule \"WARD-ANS-004\" { guard_roles = [\"preflight\"], guard_tasks = [\"Assert the cluster is healthy\"] } }`; the rule then requires (1) every play to start with a guard (the first of `pre_tasks`, else of `roles`, else of `tasks`), and (2) every place a guard is included to be tagged `always` (the `roles:` entry, the `import_role`/`include_role` task or the guard task, or a block or play around it), and a dynamic `include_role` also to apply it to what it includes (`apply: { tags: [always] }`): otherwise `--tags` skips the guard while the tasks it guards run. Without declared guards the rule finds nothing."),
    rule!("WARD-ANS-005", Error, "Secret passed with -e on a command line",
        "A secret passed to `ansible-playbook` or `ansible` with `-e`/`--extra-vars` in a script (`*.sh`, `*.bash`), a Makefile (`Makefile`, `*.mk`) or a CI file (`.gitlab-ci.yml`, `.github/workflows/*`, `Jenkinsfile`, `.circleci/`, `.ci/`, ...) sits in argv, which every user of the host can read (`ps`, `/proc/PID/cmdline`), and often in CI logs. A variable counts as a secret when its name says so, or where its value comes from does: (1) its name holds a secret word (data with its source in crates/ward-check/src/ansible.rs: `password`, `passwd`, `passphrase`, `secret`, `token`, `credential` anywhere in a word; `pass`, `pwd`, `key`, `apikey`, `privatekey`, `sshkey`, `accesskey`, `secretkey` as whole words, so `keyboard` and `monkey` are not keys), unless its last word names where or which secret it is (`ssh_key_path`, `vault_password_file`, `key_name`, `aws_access_key_id`); (2) its value is a CI secret (`${{ secrets.NAME }}`), the output of a secret store's command (`vault kv get`, `vault read`, `ansible-vault view`, `aws secretsmanager get-secret-value`, `gcloud secrets versions access`, `az keyvault secret show`, `op read`, `sops -d`, ...), or a variable whose own name says it is a secret (`$DB_PASSWORD`). A value from any other variable (`images_dir=$IMAGES_DIR`), a positional argument (`$1`) or a literal is not a secret by itself. A Jinja expression (`{{ lookup('hashi_vault', ...) }}`, `{{ lookup('env', 'X') }}`) is never flagged: Ansible evaluates it, argv holds only the expression. `-e @file` is not flagged. The finding names the variable and says truly where its value comes from (the variable `$NAME`, the script's positional argument `$1`, a literal written in the file, a CI secret, a secret store), never the value."),
    rule!("WARD-ANS-006", Error, "SSH hardening can run without its key install",
        "A task that hardens sshd (`lineinfile`, `blockinfile`, `template`, `copy` or `replace` on a path containing `sshd_config`, or an `include_role`/`import_role` of a role named like `ssh_hardening`/`sshd`) and a task that installs the login key (`authorized_key`, `ansible.posix.authorized_key`, or a copy/template to `authorized_keys`) in the same play or task file must run together: when every key install carries a `when` condition the hardening does not share, or other tags than the hardening (and not `always`), a `--limit`, a fact or a `--tags`/`--skip-tags` selection hardens the host (password login off) without installing the key, and nobody can log in again. Conditions and tags inherited from blocks and the play count."),
    rule!("WARD-COV-001", Error, "Resource type unclassified by ward's knowledge",
        "A managed resource in the repository's configuration has a type that no rule of ward's knowledge classifies (neither a built-in pack nor a `resource` block in `ward.hcl`). `ward plan` and `ward gate` fail on a change to it, on the day the change comes: the gate belongs here, before any plan, so that every module resource is classified while nobody is waiting on an apply. Add a `resource \"TYPE\" { ... }` block to `ward.hcl` that decides what changes to it cost (docs/rules.md); an empty block is refused."),
    rule!("WARD-DATA-001", Warning, "Data-holding resource without protection",
        "A resource type that holds data (per ward's knowledge: databases, volumes, buckets...) has no `lifecycle { prevent_destroy = true }` and no ward protection rule (`check { protected = [...] }`). Removing the block or a replacement plan destroys the data. Protect it, or suppress with a reason when the data is disposable. Not raised in a module repository, nor in a module no root of this repository calls (an atmos component, a module published from here): `prevent_destroy` is a literal, so only whoever instantiates it can decide (counted in `not_raised`)."),
    rule!("WARD-DISC-001", Error, "Nothing was checked",
        "A repository gate that finds nothing to check must fail, not pass: a wrong path, a renamed directory or a checkout that did not happen would otherwise go green. The rule fires only when nothing at all was checked: no `.tf`, `.tf.json` or `.tofu` file, no Ansible playbook, task file or requirements file, and no `render` block in `ward.hcl`. Run ward check at the top of the repository, or fix the path."),
    rule!("WARD-DISC-002", Error, "Declared root not found",
        "`ward.hcl` declares a root whose directory holds no Terraform/OpenTofu files. A root renamed or moved away silently drops out of every gate that works from the declared list; the declaration and the tree must agree. Fix the `path` or remove the `root` block."),
    rule!("WARD-DISC-003", Error, "Root not declared in ward.hcl",
        "When `ward.hcl` declares roots, every directory that looks like a root (a backend or cloud block, or a provider configuration, and not called as a module) must be declared. A constant list let two new modules go green through every gate without ever being validated; declare the root (with its layer) or, when it is not a root, give it no backend and no provider configuration."),
    rule!("WARD-EXEC-001", Error, "Module is not formatted",
        "`fmt -check` fails on the module (run standalone with the selected binary). Unformatted code makes every review diff noisy and hides the real change. Run `terraform fmt` (or `tofu fmt`) in the directory.", "--exec"),
    rule!("WARD-EXEC-002", Error, "Module does not validate",
        "`init -backend=false` followed by `validate` fails on the module, run standalone with the selected binary. A module that nothing validated reaches a root only at plan time, on the day someone needs it; every module is validated on its own, whoever calls it.", "--exec"),
    rule!("WARD-IMP-001", Warning, "ignore_changes without a waiver",
        "A resource keeps `lifecycle { ignore_changes = [...] }` entries that no `waiver` block of `ward.hcl` names. `ignore_changes` is the usual workaround when an import plans a change the provider cannot read back, and then it hides real drift on that attribute forever. In a root being adopted (one holding `import` blocks, as `ward import plan` writes them, and the local modules it calls) the finding is an error; elsewhere a warning. Entries a provider documents as the way to use a resource are known, each with its source (crates/ward-check/src/waivers.rs): aws_ecs_service `desired_count` and `task_definition`, aws_eks_node_group `scaling_config[0].desired_size`, aws_autoscaling_group `desired_capacity`, `load_balancers`, `target_group_arns`, aws_default_network_acl `subnet_ids`, google_container_cluster `node_pool` and `initial_node_count`, google_container_node_pool `initial_node_count`, google_compute_instance `attached_disk`, aws_route53_zone `vpc`, aws_organizations_account `role_name` and `iam_user_access_to_billing`, azurerm_kubernetes_cluster `default_node_pool[0].node_count`, azurerm_kubernetes_cluster_node_pool `node_count`, azurerm_key_vault_key `expiration_date`, azapi_update_resource `all`: outside roots being adopted they need no waiver (counted under `not_raised`); in a root being adopted they still do. Name every other entry in a `waiver { address, attributes, reason, owner, expires }` (see docs/import.md), or model the attribute and remove the entry."),
    rule!("WARD-IMP-002", Error, "Waiver expired",
        "A `waiver` covering an `ignore_changes` entry has passed its `expires` date (UTC, inclusive). An exception meant to be temporary is no longer applied: fix the model and remove the `ignore_changes` entry, or renew the waiver with its owner and a reason."),
    rule!("WARD-KEY-001", Error, "Key material written in configuration",
        "A private key (PEM/OpenSSH/PGP block) or a cloud or forge token (AWS access key id, GitHub, GitLab, Slack, Google API, DigitalOcean, Stripe live key...) is written literally in a `.tf`, `.tfvars` or template file. Anything in the repository reaches every clone, CI log and backup; an SSH private key was once found in a profile's cloud-init user-data. Move the secret to a secret store or a variable marked sensitive and rotate it: it has been exposed. ward never prints the value, only its kind and place."),
    rule!("WARD-LAYER-001", Error, "Remote state read from the same or a higher layer",
        "Layers are declared in `ward.hcl` (`layer \"name\" { level = N }` and `root { layer = ... }`). A root may read the outputs of roots in lower layers only: reading a root of the same or a higher layer through `terraform_remote_state` couples the two invisibly, breaks the apply order (forward) and the destroy order (reverse), and lets a change in an upper layer break the one below."),
    rule!("WARD-LAYER-002", Warning, "Provider configured from a resource of the same root",
        "A provider block whose arguments come from a resource managed in the same root (e.g. a Kubernetes provider configured from the cluster it creates, or a provider dialling into a VM created by the same apply) cannot be planned when that resource is replaced or not yet created, and destroy ordering breaks. Split the root: the resource belongs to the layer below, and this layer reads its outputs."),
    rule!("WARD-LAYER-003", Warning, "Remote state read across a skipped layer",
        "A root reads, through `terraform_remote_state`, the state of a root two or more layers below its own. Each layer should read only the layer directly below and re-export what the upper layers need: a read that skips layers ties the top of the stack to the internals of the bottom, so a change there breaks roots nobody thought to re-plan."),
    rule!("WARD-MOD-001", Error, "Module source on a branch or without a ref",
        "A git module source at a branch (`?ref=main`) or without `?ref=` adopts whatever lands upstream at the next routine `init -upgrade` or fresh clone: with several roots on one module that is a fleet-wide change nobody decided. Pin a tag or a commit. Refs are classified offline by shape (commit: 7-40 hex digits; tag: a version such as v1.2.3; branch: well-known branch names or names with `/`); `--resolve` asks the remote with `git ls-remote` (cached) about every ref that is not a commit id."),
    rule!("WARD-MOD-002", Warning, "Module ref cannot be classified",
        "The ref of a git module source is neither a commit id, nor shaped like a version, nor a well-known branch name, so ward cannot tell offline whether it moves. Run with `--resolve` to ask the remote, or use a tag shaped like a version or a commit id."),
    rule!("WARD-MOD-003", Error, "Registry module without a version",
        "A registry module without `version` resolves to the newest release at every `init`: an upgrade nobody reviewed, possibly a new major version. Give `version = \"X.Y.Z\"`."),
    rule!("WARD-MOD-004", Warning, "Registry module version is a range",
        "A version constraint such as `~> 5.0` or `>= 1.2` on a registry module lets `init -upgrade` move the module within the range; the lock file does not pin modules, only providers. Pin an exact version (`version = \"5.1.2\"`) and upgrade on purpose."),
    rule!("WARD-MOD-005", Error, "Same module source at different refs or versions",
        "The same module package (git repository or registry address) is used at two or more refs or versions in the repository. A release must be one version across every root; two refs mean two roots run different code under the same name, and the older one is usually forgotten. The finding names the majority version and lists the other uses (source × directory × ref), not the agreeing ones; the JSON report's matrix and `--verbose` list every use. When no version has a majority, every use is listed. In a module repository the uses in its examples and tests take no part (each is copied alone, never beside another or beside the module's own pin); the matrix still lists them."),
    rule!("WARD-PARSE-001", Error, "File cannot be parsed",
        "A `.tf`, `.tofu`, `.tf.json` or Ansible YAML file cannot be parsed. Terraform would refuse it at `init`; ward reports the file and line instead of skipping the directory, because a skipped directory is a directory nothing checked."),
    rule!("WARD-RENDER-001", Error, "Committed files differ from what their generator renders",
        "A `render \"NAME\"` block of `ward.hcl` names a command that renders files (HCL roots, policies, configuration) and the committed files it must equal. ward runs the command in a scratch copy of the repository (owner-only, removed on every exit; a timeout; bounded output; only PATH, HOME, USER, LOGNAME, SHELL, LANG, LC_*, TMPDIR and TERM of the environment) and compares what it wrote with the committed `compare` path, file by file. A hand edit beside a generator is a second source of truth: a module once carried a hand-written IAM grant next to the generator that renders it, and nothing noticed until the two disagreed in production. The finding carries a unified diff (at most 200 lines; when cut, it says how many lines were left out and how to see all of them) and the command that regenerates the files."),
    rule!("WARD-RENDER-002", Error, "Two renders of the same tree differ",
        "`render \"NAME\" { determinism = true }` renders twice, each time in a fresh copy, and the two must be byte-identical: when a render draws on randomness, the clock or unordered maps, every revision shows a diff and a real change hides among the noise. The finding names the first file and byte (with line and column for text) where the renders differ. Pin the seed, the timestamp or the order."),
    rule!("WARD-RENDER-003", Error, "Render command failed",
        "The command of a `render` block could not be run, failed, timed out (`timeout`, default 300s), or succeeded without writing anything at `output`, so the rendered files could not be compared. A render that cannot run is a gate that checks nothing; the finding says what happened and how to fix it."),
    rule!("WARD-STATE-001", Error, "Local state inside the repository",
        "A `local` backend (explicit, or its default `terraform.tfstate`) whose state path lies inside the repository. State in a worktree is lost with the worktree: a git-ignored state file was lost to a re-clone. Keep state in a remote backend, or in a host-owned directory outside every checkout, with backups beside it."),
    rule!("WARD-STATE-002", Warning, "Root without a backend",
        "A root has no `backend` or `cloud` block, so `apply` writes `terraform.tfstate` into the working directory, inside the checkout. Declare the backend explicitly (remote, or `local` with a path outside the repository). Not raised where a generator writes the backend at plan time: a `check { generated }` block says so, or the repository's `.gitignore` ignores the root's `backend.tf.json` or `backend.tf` with a pattern naming the backend (`**/backend.tf.json`, as atmos projects write to have atmos auto-generate it); the report counts those under `not_raised`, with the `.gitignore` line."),
    rule!("WARD-STATE-003", Error, "State file tracked by git",
        "A `*.tfstate` file is committed. State holds every attribute of every resource, secrets included, and a committed copy goes stale at the next apply while still looking authoritative. Remove it from git (`git rm --cached`), rotate any secret it holds and move state to a backend."),
    rule!("WARD-STATE-004", Warning, "State file lying in the worktree",
        "A `*.tfstate` file lies inside the repository tree, untracked or ignored. It is lost with the worktree (a re-clone, a `git clean -x`) and nobody notices until the next plan proposes to create everything again. Move it to a backend or outside the checkout."),
    rule!("WARD-SUP-001", Error, "Suppression without a reason",
        "A `ward:ignore` comment must say why (`reason=\"...\"`). A suppression without a reason cannot be reviewed or retired; it is not applied, and the finding it meant to hide is reported too."),
    rule!("WARD-SUP-002", Error, "Suppression expired",
        "A `ward:ignore` comment's `until=YYYY-MM-DD` date has passed (dates are UTC). An exception that was meant to be temporary is no longer applied: fix the finding or renew the suppression with a new reason."),
    rule!("WARD-SUP-003", Info, "Suppression matches no finding",
        "A `ward:ignore` comment hides nothing: the finding was fixed, or the comment drifted away from the line it meant. A stale suppression hides the next real finding at that place; remove it."),
    rule!("WARD-VER-001", Error, "Root without required_version",
        "A root without `required_version` can be initialised by any Terraform or OpenTofu version: a host with an old binary fails late, and one with another product may rewrite provider addresses in state. Declare the versions the root is tested with."),
    rule!("WARD-VER-002", Error, "required_version excludes the floor",
        "`ward.hcl` sets `check { terraform_floor = \"X.Y.Z\" }`, the oldest version the team runs. A root whose `required_version` does not admit the floor cannot be initialised on hosts at the floor (a host with 1.5.7 cannot init a root requiring ≥ 1.6). Raise the floor everywhere first, or relax the constraint."),
    rule!("WARD-VER-003", Error, "Provider without a version constraint",
        "A `required_providers` entry without `version` lets every `init` without a lock file pick the newest provider, including a new major version with breaking changes. Give a constraint (`~> 5.0`) in every module and root."),
    rule!("WARD-VER-004", Error, "Root without a lock file",
        "A root without `.terraform.lock.hcl` committed resolves providers afresh on every fresh checkout: two operators, or CI and a host, run different provider builds. Run `init` and commit the lock file. A root that needs no provider (only the built-in `terraform_data` and `terraform_remote_state`, no `required_providers`, no provider configuration, no module that needs one) is not asked for one: `init` writes none there. When a `.gitignore` line ignores the lock file (`**/.terraform.lock.hcl`), that one line is the cause for every root it reaches: one finding at that line lists the roots, instead of one per root. A Terragrunt unit's finding points at its `terragrunt.hcl`, not at the files it includes."),
];

/// The settings besides `severity` and `enabled` each rule takes in `check { rule "ID" { } }`.
pub const RULE_OPTIONS: &[(&str, &[&str])] = &[
    ("WARD-ANS-003", &["max_timeout", "min_retries", "min_delay"]),
    ("WARD-ANS-004", &["guard_roles", "guard_tasks"]),
];

/// The settings a rule takes besides `severity` and `enabled`.
pub fn options(id: &str) -> &'static [&'static str] {
    RULE_OPTIONS
        .iter()
        .find(|(r, _)| *r == id)
        .map(|(_, o)| *o)
        .unwrap_or(&[])
}

/// What to say when `key` is given to a rule that does not take it.
pub fn options_help(id: &str, key: &str) -> String {
    let takes = options(id);
    let owner = RULE_OPTIONS
        .iter()
        .find(|(_, o)| o.contains(&key))
        .map(|(r, _)| *r);
    let own = if takes.is_empty() {
        format!("{id} takes only `severity` and `enabled`")
    } else {
        format!(
            "{id} takes `severity`, `enabled`, {}",
            takes
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    match owner {
        Some(o) => format!("`{key}` is a setting of {o}; {own}"),
        None => own,
    }
}

/// Looks a rule up by ID.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

const USAGE: &str = "\
`ward check` runs every gate below over a whole repository in one pass:

```sh
ward check [PATH] [--format terminal|json|sarif|junit] [--output FILE] [--fail-on error|warning|info]
           [--config ward.hcl] [--resolve [--cache-dir DIR] [--resolve-timeout SECONDS]]
           [--exec [--binary terraform|tofu|PATH] [--exec-timeout SECONDS] [--allow-env NAME]...]
           [--today YYYY-MM-DD] [--verbose] [--list-rules] [--color auto|always|never]
           [--exclude PATH]... [--changed FILE...]
```

- PATH is the repository's top directory (default `.`); `ward.hcl` is read from there unless
  `--config` names another file (syntax in `docs/config.md`).
- Every directory with `.tf`, `.tf.json`, `.tofu` or `.tofu.json` files is discovered and parsed
  (`.git`, `.terraform`, `.terragrunt-cache`, `.terragrunt-stack` and `node_modules` are skipped;
  template directories too, below) and reported as a root or a module; `--verbose` and the JSON
  report list them all, with the module source matrix.
- `--color auto|always|never` (default `auto`) colours the terminal report: severities and the
  verdict. `auto`: only when standard output is a terminal and `NO_COLOR` is unset (or empty);
  `always` wins over `NO_COLOR`. JSON, SARIF and JUnit are never coloured.
- Parse budget: a native HCL file (`.tf`, `.tofu`, `terragrunt.hcl`) whose text stops making
  sense (it ends, or a closing bracket matches nothing) with more than 8 brackets, strings or
  template interpolations still open there is reported as WARD-PARSE-001 without being handed to
  the HCL parser, whose time doubles with every one left open; the finding names the file, the
  line of the innermost one left open and the line of the outermost. Such a file is invalid
  anyway; a valid file of any nesting (up to the parser's own depth limit) reads as before.
  The same budget holds for `ward.hcl` and rule files (crates/ward-hcl).
- Exit codes: 0 pass; 1 a finding at or above the failing severity (`--fail-on`, else
  `check { fail_on }`, else `error`); 2 usage or input error (unreadable path, bad `ward.hcl`).
- `--resolve` asks each git remote once (`git ls-remote --heads --tags`, prompts disabled) what
  every ref that is not a commit id really is (a tag-shaped branch is a branch), and caches the answer for 24 hours under
  `$XDG_CACHE_HOME/ward/ls-remote` (or `--cache-dir`).
- `--exec` copies the repository to a temporary directory and runs `fmt -check`, then
  `init -backend=false` and `validate` in every directory, each with its own `TF_DATA_DIR`;
  nothing is written into the repository. `init` needs the providers and modules to be
  reachable (a registry, a mirror or a plugin cache configured in the environment). Each command
  may take `--exec-timeout SECONDS` (default 300); the first that times out is reported as a
  finding naming it, and no further command is started. Inherited `TF_*` variables are removed
  except `TF_VAR_*`, `TF_TOKEN_*`, `TF_PLUGIN_CACHE_DIR`, `TF_CLI_CONFIG_FILE` and `--allow-env NAME`.
- `--resolve-timeout SECONDS` (default 60) bounds each `git ls-remote`.
- Every `render \"NAME\"` block of `ward.hcl` runs its command in a scratch copy and compares the
  result with the committed files (WARD-RENDER-*); with `--exec`, rendered directories holding
  `.tf` files are validated as generated roots, local module sources rewritten to the checkout.
- Output is deterministic: findings sorted by file, line and rule; no timestamps. Key material is
  never printed, only its kind and position.
";

const SHAPES: &str = "
## Repository shapes

**Roots.** A directory is a root when something says it is applied there, and no other
directory calls it as a module by a local path (a declared root is a root even when called):
a `backend` or `cloud` block; a provider configuration; a state file beside it
(`terraform.tfstate`, so an applied directory without a backend block is still a root, and
`ward drift` checks it); a `terraform.tfvars` or `*.auto.tfvars` beside it; a Terragrunt unit
(`terragrunt.hcl`); a `root` block in `ward.hcl`. `--verbose` and the JSON report give each
directory's kind and the signals that decided it.

**Live and module repositories.** A *module repository* has a top-level `examples/`, `example/`,
`tests/` or `test/` directory with Terraform files, no `root` declared in `ward.hcl`, and either
Terraform files at its top that are a module (none of the signals above: the shape of a published
module, one module at the top, `examples/`, `tests/`, `modules/`), or only roots under those
directories (a collection of modules, `modules/x` shown by `examples/x`). There, what would be a root
under `examples/` or `tests/` is an *example*: it is checked for pins and versions (WARD-MOD-*,
WARD-VER-001..003, key material, parse errors) but not as a production root: WARD-VER-004 (lock
file) and WARD-STATE-002 (backend) are not raised for it, and no `ward drift` runs there.
A finding in an example or test is at most a warning, as what a user copying it inherits (key
material and suppression problems keep their severity); WARD-VER-003 and WARD-VER-001 are not
raised there when a module the example calls sets the constraint (a local path, or the
repository's own registry address `NS/NAME/PROVIDER` for a repository named
`terraform-PROVIDER-NAME`), since a copy inherits it through the call, and versions that differ
between examples split nothing for WARD-MOD-005; the table is `IN_EXAMPLES` in
crates/ward-check/src/layout.rs.
WARD-DATA-001 is not raised anywhere in a module repository: `prevent_destroy` must be a literal,
so a reusable module cannot let its callers choose, and protecting is the caller's decision
(`check { protected }` in the live repository that calls it). Every other repository is a *live
repository*, checked as before. The report says which (`repository_kind`), and counts what was
not raised and why (`not_raised`).

**Deprecated directories.** Code under a `deprecated/` directory (`DEPRECATED_DIRS` in
crates/ward-repo) is code the repository keeps but no longer maintains: it is checked, but an
error there is reported as a warning (key material and suppression problems keep their severity),
and the module pins it holds split nothing for WARD-MOD-005. To check it as live code, move it, or
to leave it out entirely, `--exclude deprecated`.

**atmos.** A directory under an `atmos.yaml`'s `components.terraform.base_path` (default
`components/terraform`, below `base_path`), a directory a stack names as a local component source
(`source: { uri: ../x }`), and a mixins directory (`mixins/`, or only `*.mixin.tf` files) are
modules (components the stacks instantiate, files copied into them), not roots, even when they
configure a provider: WARD-VER-001, WARD-VER-004 and WARD-STATE-002 are not raised for them. So is
a component library an atmos vendoring manifest (`kind: AtmosVendorConfig`) pulls from: a
directory of this repository at the end of a `source: \"...//lib/{{ .Component }}\"` path with the
item's component filled in (`lib/x/y`, or `x/y`: two path components at least).

**Rendered modules.** Modules whose files say they were \"generated from a template in
./autogen/main\" (terraform-google-modules) are renderings of one template: a finding every
rendering repeats (same rule, file, message) is reported once, at the first, listing the others.

**Templates.** A `.boilerplate` directory, a directory whose name holds `{{` (cookiecutter,
copier), and a configuration file that does not parse and holds `{{ … }}` are templates: not
parsed (no WARD-PARSE-001), listed with the paths not read. A file whose whole text is the path
of another configuration file is a symlink checked out as a plain file; WARD-PARSE-001 says so.

**Terragrunt.** Every `terragrunt.hcl` that no other one includes is a unit, and a root; no
Terragrunt binary is needed. ward reads the unit and the files its `include` blocks name
(`find_in_parent_folders(...)`, `dirname(...)`, `get_terragrunt_dir()`, `get_repo_root()`,
literal paths and templates of those): `terraform { source }` is checked like a module source
(WARD-MOD-001..005: branch, tag, commit; `tfr://` registry sources with `?version=`; one version
across units); `dependency` blocks are reads of the unit they name, checked against the declared
layers like `terraform_remote_state` (WARD-LAYER-001, WARD-LAYER-003); `remote_state` (or a
`generate` block writing a backend) is the unit's backend; `terraform_version_constraint` is its
`required_version`. A unit without `.tf` files of its own is not asked for `required_version`
(WARD-VER-001: the source module declares it) and is skipped by `--exec`. Values ward cannot
evaluate without Terragrunt (other functions, `read_terragrunt_config` results) leave the source
unchecked. A `terragrunt.stack.hcl` (explicit stacks) is read: each `unit` block is a unit, and a
root, at the directory Terragrunt generates it (`.terragrunt-stack/PATH`, or `PATH` with
`no_dot_terragrunt_stack`); its `source` is checked like a module source (WARD-MOD-001..005); a
local source is read as the unit there, with the block's literal `values` (`values.NAME` in its
`terraform { source }` is evaluated); nested `stack` blocks with a local source are followed. A unit
generated from a remote source is not read: WARD-VER-004 and WARD-STATE-002 are not raised for it
(counted). The catalog directory a local source names is a module, not a root. A unit block with a
remote source that passes `version` or `ref` shaped like a branch (`version = \"main\"`) is a
WARD-MOD-001 warning at the block: by Terragrunt's catalog convention the unit pins its module with
it (`?ref=${values.version}`), and ward cannot read the unit to confirm (`REF_VALUES` in
crates/ward-check/src/layout.rs).

**Excluded paths.** `check { exclude \"PATH\" { reason = \"...\" } }` in `ward.hcl`, and
`--exclude PATH` on the command line, name paths ward check does not read at all (a directory
covers everything below it; `*` matches any run of characters, as in every `ward.hcl` pattern).
The report lists each excluded path with its reason.

**Generated backends and lock files.** Where a generator writes the backend and lock file at
plan time (atmos, Terragrunt's `generate`), say so: `check { generated \"atmos\" { backend = true,
lock_file = true, paths = [\"components/terraform\"] } }`. WARD-STATE-002 and WARD-VER-004 are then
not raised for the roots under `paths` (every root when `paths` is absent), and the report counts
them under `not_raised` with the generator's name. Without the block, the repository's own
`.gitignore` files, read once as git reads them, say the same facts: a line that ignores the roots' lock
files is one cause, reported once (WARD-VER-004 at that line, listing the roots it reaches); a line that
ignores a generated backend file (`**/backend.tf.json`) means the backend exists at plan time
(WARD-STATE-002 is not raised there, and `not_raised` names the line).

**Pre-commit.** `--changed FILE...` still checks the whole repository (a version split or an
undeclared root needs all of it) but reports only the findings about the directories of those
files, and the repository-wide ones; the summary counts what was left out (`outside_changed`).
`.pre-commit-hooks.yaml` at the top of ward's repository uses it (integrations/README.md).
";

/// `docs/check-rules.md`, generated.
pub fn render_markdown() -> String {
    let mut s = String::new();
    s.push_str("# ward check: rule catalog\n\n");
    s.push_str("<!-- Generated from crates/ward-check/src/catalog.rs by `WARD_BLESS=1 cargo test -p ward-check --test docs`. Do not edit by hand. -->\n\n");
    s.push_str(USAGE);
    s.push_str(SHAPES);
    s.push_str("\n## Rules\n\n");
    s.push_str("Every rule has a failing and a passing fixture under `crates/ward-check/tests/fixtures/rules/<ID>/`.\n");
    s.push_str("Severities can be changed, and rules turned off, in `ward.hcl` (see `docs/config.md`); single findings are suppressed inline with a reason:\n\n");
    s.push_str("```hcl\n# ward:ignore WARD-MOD-001 reason=\"vendored fork, tracked in OPS-123\" until=2027-01-31\nmodule \"x\" {\n  source = \"git::https://example.com/x.git?ref=main\"\n}\n```\n\n");
    s.push_str("| ID | default | title |\n|---|---|---|\n");
    for r in RULES {
        s.push_str(&format!(
            "| [{id}](#{anchor}) | {sev} | {title} |\n",
            id = r.id,
            anchor = r.id.to_lowercase(),
            sev = r.severity,
            title = r.title
        ));
    }
    for r in RULES {
        s.push_str(&format!("\n## {}\n\n", r.id));
        s.push_str(&format!(
            "**{}** — default severity: `{}`",
            r.title, r.severity
        ));
        if let Some(flag) = r.opt_in {
            s.push_str(&format!(" (runs only with `{flag}`)"));
        }
        s.push_str("\n\n");
        s.push_str(r.doc);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sorted_and_unique() {
        let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, ids, "keep the catalog sorted, without duplicates");
    }
}
