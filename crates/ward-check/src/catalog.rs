//! The rule catalog: every rule ward check runs, with its ID, default severity and documentation.
//! `docs/check-rules.md` is generated from it ([`render_markdown`]); a test fails when it is stale.

pub use crate::rules::{rule, Rule, RuleId, RULES};
pub use crate::severity::Severity;

/// The settings a rule takes besides `severity` and `enabled` (its rule file's `options`).
pub fn options(id: RuleId) -> &'static [&'static str] {
    id.rule().options
}

/// What to say when `key` is given to a rule that does not take it.
pub fn options_help(id: RuleId, key: &str) -> String {
    let takes = options(id);
    let owner = RULES
        .iter()
        .find(|r| r.options.contains(&key))
        .map(|r| r.id);
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

/// The fence language of an example file.
fn fence(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.ends_with(".tf")
        || name.ends_with(".hcl")
        || name.ends_with(".tftpl")
        || name.ends_with(".tfvars")
    {
        "hcl"
    } else if name.ends_with(".yml") || name.ends_with(".yaml") {
        "yaml"
    } else if name.ends_with(".sh") {
        "sh"
    } else if name.ends_with(".json") {
        "json"
    } else if name == "Makefile" {
        "make"
    } else {
        "text"
    }
}

fn examples(s: &mut String, what: &str, r: &Rule, side: &str, files: &[crate::rules::Example]) {
    s.push_str(&format!(
        "**{what}** (`crates/ward-check/tests/fixtures/rules/{}/{side}/`",
        r.id
    ));
    if files.is_empty() {
        s.push_str("; no file of its own: the other fixture's files, less what that one adds)\n\n");
        return;
    }
    s.push_str("; the files that differ from the other fixture):\n\n");
    for e in files {
        let text = e.text.trim_end();
        s.push_str(&format!(
            "`{}`{}\n\n",
            e.path,
            if text.is_empty() { " (empty)" } else { ":" }
        ));
        if !text.is_empty() {
            s.push_str(&format!("```{}\n{text}\n```\n\n", fence(e.path)));
        }
    }
}

/// `docs/check-rules.md`, generated from the registry (`crates/ward-check/src/rules/`).
pub fn render_markdown() -> String {
    let mut s = String::new();
    s.push_str("# ward check: rule catalog\n\n");
    s.push_str("<!-- Generated from the rule registry (crates/ward-check/src/rules.rs and one file per rule in crates/ward-check/src/rules/) by `WARD_BLESS=1 cargo test -p ward-check --test docs`. Do not edit by hand. -->\n\n");
    s.push_str(USAGE);
    s.push_str(SHAPES);
    s.push_str("\n## Rules\n\n");
    s.push_str("Each rule is one file, `crates/ward-check/src/rules/<family>_<nnn>.rs`, holding its documentation (below), its metadata and its check; every rule has a failing and a passing fixture under `crates/ward-check/tests/fixtures/rules/<ID>/`, and the examples below are those fixtures' files.\n");
    s.push_str("Severities can be changed, and rules turned off, in `ward.hcl` (see `docs/config.md`); an ID `ward.hcl` names that is no rule's is a configuration error (exit 2) that names the closest ID. Single findings are suppressed inline with a reason:\n\n");
    s.push_str("```hcl\n# ward:ignore WARD-MOD-001 reason=\"vendored fork, tracked in OPS-123\" until=2027-01-31\nmodule \"x\" {\n  source = \"git::https://example.com/x.git?ref=main\"\n}\n```\n\n");
    s.push_str("| ID | name | default | category | title |\n|---|---|---|---|---|\n");
    for r in RULES {
        s.push_str(&format!(
            "| [{id}](#{anchor}) | `{name}` | {sev} | {cat} | {title} |\n",
            id = r.id,
            anchor = r.id.as_str().to_lowercase(),
            name = r.name,
            sev = r.severity,
            cat = r.category.as_str(),
            title = r.title
        ));
    }
    for r in RULES {
        s.push_str(&format!("\n## {}\n\n", r.id));
        s.push_str(&format!(
            "**{}** — `{}`, default severity: `{}`, category: {}",
            r.title,
            r.name,
            r.severity,
            r.category.as_str()
        ));
        if let Some(flag) = r.opt_in {
            s.push_str(&format!(" (runs only with `{flag}`)"));
        }
        if r.needs_terraform {
            s.push_str("; runs Terraform/OpenTofu");
        }
        s.push_str(&format!(
            "; file `crates/ward-check/src/rules/{}.rs`\n\n",
            r.id.file()
        ));
        s.push_str(r.doc);
        s.push_str("\n\n");
        if let Some(n) = r.note {
            match principle(n) {
                Some(p) => s.push_str(&format!("*Why:* {p} (field note {n}).\n\n")),
                None => s.push_str(&format!("*Why:* field note {n}.\n\n")),
            }
        }
        if !r.options.is_empty() {
            s.push_str(&format!(
                "*Settings:* {}.\n\n",
                r.options
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let crate::rules::Check::Pass(by) = r.check {
            s.push_str(&format!("*Checked by:* {by}.\n\n"));
        }
        examples(&mut s, "Fails", r, "fail", r.fails);
        examples(&mut s, "Passes", r, "pass", r.passes);
        s.push_str(&format!("*Fix:* {}\n\n", r.fix));
        s.push_str("*Waive:* ");
        if r.id.as_str().starts_with("WARD-SUP-") {
            s.push_str(r.waive);
        } else {
            s.push_str(&format!(
                "`# ward:ignore {id} reason=\"...\" until=YYYY-MM-DD` on or above the line (`ward:ignore-file` for the whole file); `check {{ rule \"{id}\" {{ severity = \"warning\" }} }}` or `enabled = false` in `ward.hcl` for the repository.",
                id = r.id
            ));
            if !r.waive.is_empty() {
                s.push(' ');
                s.push_str(r.waive);
            }
        }
        s.push('\n');
    }
    s
}

/// The principle each field note states, in a few words, for the generated rule documentation
/// (the notes themselves are the project's requirements background, not shipped with ward).
const PRINCIPLES: &[(u8, &str)] = &[
    (
        2,
        "a classification that silently lets new types through is worse than none",
    ),
    (5, "a missing input is a failure, never a skip"),
    (
        6,
        "discover what exists, then compare it with what is declared",
    ),
    (8, "a check that cannot fail is a defect"),
    (10, "the plan does not know what is running"),
    (
        11,
        "protection that lives only in code disappears with the code",
    ),
    (12, "state lives outside every checkout"),
    (13, "choose the binary by evidence"),
    (14, "one version across every layer"),
    (
        15,
        "a layer reads only the layer below, and only its outputs",
    ),
    (16, "import, don't rebuild"),
    (17, "output is deterministic"),
    (19, "secrets leak through side doors"),
];

fn principle(note: u8) -> Option<&'static str> {
    PRINCIPLES.iter().find(|(n, _)| *n == note).map(|(_, p)| *p)
}
