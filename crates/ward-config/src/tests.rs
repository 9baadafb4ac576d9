use super::*;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, "ward.hcl", Path::new("/repo"))
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

const FULL: &str = r#"
resource "fakecloud_volume" {
  holds_data = true
}
layer "base" { level = 0 }
layer "apps" { level = 1 }
root "net" {
  path   = "./live/net/"
  layer  = "base"
  binary = "tofu"
}
root "app" {
  path         = "live/app"
  expect_empty = true
  binary       = "/opt/tf/terraform"
}
check {
  terraform_floor = "1.6.0"
  fail_on         = "warning"
  protected       = ["aws_db_instance.*"]
  rule "WARD-MOD-004" { severity = "info" }
  rule "WARD-STATE-002" { enabled = false }
  release "platform" {
    module_sources = ["github.com/acme/*"]
    collections    = ["acme.platform"]
    variables      = ["platform_version"]
  }
}
policy {
  approve                  = ["data-loss", "replace"]
  approve_destroy_of_data  = false
  protect                  = ["module.ledger.*"]
  approvals                = "ci/approvals.json"
  require_signed_approvals = true
  budget { max_replaces = 3 }
  budget "fakecloud_volume" {
    max_replaces = 1
    max_deletes  = 0
  }
}
guard "builds-idle" {
  types   = ["fakecloud_instance"]
  actions = ["delete"]
  command = ["sh", "-c", "exit 0"]
  timeout = "5s"
}
drift {
  exclude "sandbox/*" { reason = "scratch" }
  ignore {
    address   = "fakecloud_instance.*"
    attribute = "tags.*"
    owner     = "team-a"
    expires   = "2026-12-31"
  }
}
"#;

#[test]
fn every_section() {
    let c = parse(FULL).unwrap();
    assert_eq!(c.rules.len(), 1);
    assert_eq!(c.roots[0].path, "live/net");
    assert_eq!(c.roots[0].pin, Some(Pin::Tofu));
    assert_eq!(c.roots[0].line, 7);
    assert!(c.roots[1].expect_empty);
    assert_eq!(c.layer_of("live/net").unwrap().level, 0);
    assert_eq!(c.check.terraform_floor.as_deref(), Some("1.6.0"));
    assert_eq!(c.check.rules[0].severity.as_deref(), Some("info"));
    assert!(!c.check.rules[1].enabled);
    assert_eq!(c.check.releases[0].variables, vec!["platform_version"]);
    assert!(!c.policy.approve_destroy_of_data);
    assert!(c.policy.require_signed_approvals);
    assert_eq!(
        c.policy.approval_expiry,
        Some(crate::policy::DEFAULT_APPROVAL_EXPIRY)
    );
    assert_eq!(
        c.policy.approvals_file,
        Path::new("/repo/ci/approvals.json")
    );
    assert_eq!(
        c.policy.protection_record,
        Path::new("/repo/.ward/protection.json")
    );
    assert_eq!(c.policy.budgets.all.max_replaces, Some(3));
    assert_eq!(
        c.policy.budgets.per_type["fakecloud_volume"].max_deletes,
        Some(0)
    );
    assert_eq!(
        c.policy.guards[0].bypass_var(),
        "WARD_BYPASS_GUARD_BUILDS_IDLE"
    );
    assert_eq!(
        c.policy.guards[0].timeout,
        std::time::Duration::from_secs(5)
    );
    assert_eq!(c.policy.guards[0].dir, Path::new("/repo"));
    assert_eq!(
        c.drift.excluded("sandbox/a/b").map(|e| e.reason.as_str()),
        Some("scratch")
    );
    assert!(c.drift.excluded("live/net").is_none());
    let rule = &c.drift.ignores[0];
    assert!(rule.matches("net", "fakecloud_instance.web", "tags.owner"));
    assert!(!rule.matches("net", "fakecloud_instance.web", "size"));
    assert!(!rule.matches("net", "fakecloud_volume.v", "tags.owner"));
    assert!(!rule.expired(ward_time::parse_date("2026-12-31").unwrap()));
    assert!(rule.expired(ward_time::parse_date("2027-01-01").unwrap()));
}

#[test]
fn defaults_when_absent() {
    let c = parse("").unwrap();
    assert!(c.rules.is_empty());
    assert_eq!(
        c.policy.approvals_file,
        Path::new("/repo/.ward/approvals.json")
    );
    assert_eq!(
        c.policy.approve,
        std::collections::BTreeSet::from([ward_model::Impact::DataLoss])
    );
    assert!(c.roots.is_empty() && c.drift.ignores.is_empty());
}

/// A typo at any depth is an error at its line and column, with a did-you-mean.
#[test]
fn a_key_written_in_the_wrong_block_names_the_block_it_belongs_in() {
    // One key of every section's schema, written in `plan { }` (which takes none of them): the
    // suggestion comes from the schemas the sections export (read.rs knows no section).
    for (key, place) in [
        ("binary", "`root \"NAME\" { }`"),
        ("level", "`layer \"NAME\" { }`"),
        ("var_files", "`root \"NAME\" { site \"NAME\" { } }`"),
        ("backup_dir", "`stack { }`"),
        ("terraform_floor", "`check { }`"),
        ("module_sources", "`check { release \"NAME\" { } }`"),
        ("max_deletes", "`policy { budget { } }`"),
        ("addresses", "`guard \"NAME\" { }`"),
        ("determinism", "`render \"NAME\" { }`"),
        ("attributes", "`waiver { }`"),
    ] {
        let text = format!("plan {{\n  {key} = 1\n}}\n");
        let e = err(&text);
        assert!(
            e.contains(&format!("did you mean `{key}`? it belongs in {place}")),
            "{text:?}: {e}"
        );
    }
    // A word close to nothing anywhere gets no suggestion.
    let e = err("plan {\n  zzzzqqq = 1\n}\n");
    assert!(!e.contains("belongs in"), "{e}");
}

#[test]
fn typos_everywhere_are_errors_with_a_suggestion() {
    for (text, want_at, want_word) in [
        (
            "check {\n  enabeld = false\n}\n",
            "ward.hcl:2:3:",
            "`enabled`",
        ),
        ("check {\n  skip_paths = [\"x\"]\n}\n", "ward.hcl:2:3:", ""),
        (
            "check {\n  terraform_flor = \"1.6.0\"\n}\n",
            "ward.hcl:2:3:",
            "`terraform_floor`",
        ),
        (
            "check {\n  rule \"WARD-MOD-004\" {\n    enabeld = false\n  }\n}\n",
            "ward.hcl:3:5:",
            "`enabled`",
        ),
        (
            "check {\n  release \"p\" {\n    colections = []\n  }\n}\n",
            "ward.hcl:3:5:",
            "`collections`",
        ),
        (
            "check {\n  rules \"WARD-MOD-004\" {}\n}\n",
            "ward.hcl:2:3:",
            "`rule`",
        ),
        (
            "drift {\n  exclud \"x\" { reason = \"r\" }\n}\n",
            "ward.hcl:2:3:",
            "`exclude`",
        ),
        (
            "drift {\n  ignore {\n    adress = \"a\"\n  }\n}\n",
            "ward.hcl:3:5:",
            "`address`",
        ),
        (
            "root \"a\" {\n  path = \"x\"\n  pathh = \"y\"\n}\n",
            "ward.hcl:3:3:",
            "`path`",
        ),
        (
            "layer \"a\" {\n  levle = 1\n}\n",
            "ward.hcl:2:3:",
            "`level`",
        ),
        (
            "policy {\n  protetc = []\n}\n",
            "ward.hcl:2:3:",
            "`protect`",
        ),
        (
            "policy {\n  budget {\n    max_delete = 1\n  }\n}\n",
            "ward.hcl:3:5:",
            "`max_deletes`",
        ),
        (
            "guard \"g\" {\n  comand = [\"x\"]\n}\n",
            "ward.hcl:2:3:",
            "`command`",
        ),
        ("polcy {\n}\n", "ward.hcl:1:1:", "`policy`"),
        (
            "resource \"a_vm\" {\n  holds_dta = true\n}\n",
            "ward.hcl:2:3:",
            "`holds_data`",
        ),
    ] {
        let e = err(text);
        assert!(e.starts_with(want_at), "{text:?}: {e}");
        assert!(e.contains("unknown"), "{text:?}: {e}");
        assert!(e.contains("help:"), "{text:?}: {e}");
        if !want_word.is_empty() {
            assert!(
                e.contains(&format!("did you mean {want_word}")),
                "{text:?}: {e}"
            );
        }
    }
}

#[test]
fn refusals_name_the_place_and_what_to_do() {
    for (text, want) in [
        ("root \"a\" {}", "has no `path`"),
        ("root {\n path = \"x\"\n}", "exactly one label"),
        ("root \"a\" {\n path = \"x\"\n binary = \"tf\"\n}", "not understood"),
        ("root \"a\" {\n path = \"/abs\"\n}", "outside the repository"),
        ("root \"a\" {\n path = \"../other\"\n}", "outside the repository"),
        ("root \"a\" {\n path = \"x\"\n}\nroot \"a\" {\n path = \"y\"\n}", "declared twice"),
        ("root \"a\" {\n path = \"x\"\n}\nroot \"b\" {\n path = \"./x\"\n}", "both have path"),
        ("root \"a\" {\n path = \"x\"\n layer = \"bse\"\n}\nlayer \"base\" { level = 0 }", "did you mean \"base\""),
        ("layer \"a\" {}", "needs `level = N`"),
        ("layer \"a\" { level = \"1\" }", "whole number"),
        ("check {}\ncheck {}", "a second `check` block"),
        ("check {\n fail_on = \"bad\"\n}", "not a severity"),
        ("check {\n rule \"X\" { severity = \"warn\" }\n}", "did you mean \"warning\""),
        ("check {\n protected = [\"\"]\n}", "empty pattern"),
        ("drift {\n exclude \"x\" {}\n}", "has no reason"),
        ("drift {\n exclude \"../x\" { reason = \"r\" }\n}", "outside the repository"),
        ("drift {\n ignore {\n address = \"a\"\n expires = \"2026-01-01\"\n }\n}", "no `owner`"),
        ("drift {\n ignore {\n address = \"a\"\n owner = \"o\"\n }\n}", "no `expires`"),
        ("drift {\n ignore {\n address = \"a\"\n owner = \"o\"\n expires = \"soon\"\n }\n}", "YYYY-MM-DD"),
        ("drift {\n ignore {\n address = \"a\"\n owner = \"o\"\n expires = \"2026-02-31\"\n }\n}", "not a day of the calendar"),
        ("policy {\n approve = [\"lots\"]\n}", "unknown impact class"),
        ("policy {\n approve = [\"dataloss\"]\n}", "did you mean \"data-loss\""),
        ("policy {}\npolicy {}", "a second `policy` block"),
        ("policy {\n budget { max_deletes = -1 }\n}", "whole number"),
        ("policy {\n approvals = \"../../../x.json\"\n}", "outside the repository"),
        ("policy {\n protection_record = \"/tmp/x.json\"\n}", "outside the repository"),
        ("policy {\n protect = \"x\"\n}", "list of strings"),
        ("guard \"a b\" {\n command = [\"x\"]\n types = [\"t\"]\n}", "guard name"),
        ("guard \"g\" {\n types = [\"t\"]\n}", "`command` is required"),
        ("guard \"g\" {\n command = [\"x\"]\n}", "watches nothing"),
        ("guard \"g\" {\n command = [\"x\"]\n types = [\"t\"]\n timeout = \"soon\"\n}", "invalid duration"),
        ("guard \"g\" {\n command = [\"x\"]\n types=[\"t\"]\n}\nguard \"g\" {\n command = [\"x\"]\n types=[\"t\"]\n}", "twice"),
        ("x = 1", "unexpected top-level key"),
        ("pack {}", "`pack` header"),
        ("policy {", "not valid HCL"),
    ] {
        let e = err(text);
        assert!(e.contains(want), "{text:?}: {e} (wanted {want:?})");
        assert!(e.starts_with("ward.hcl:"), "{text:?}: {e}");
        let line: usize = e.split(':').nth(1).unwrap().parse().unwrap_or(0);
        assert!(line > 0, "{text:?}: no line in {e}");
        assert!(e.contains("help:"), "{text:?}: {e}");
    }
}

#[test]
fn discovery_walks_up_to_the_repository_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    let deep = root.join("envs/prod");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    assert_eq!(discover(None, &deep).unwrap(), None);
    std::fs::write(root.join("ward.hcl"), "").unwrap();
    let found = discover(None, &deep).unwrap().unwrap();
    assert_eq!(
        found.path,
        std::fs::canonicalize(root.join("ward.hcl")).unwrap()
    );
    assert_eq!(found.display, "../../ward.hcl");
    assert_eq!(discover(None, &root).unwrap().unwrap().display, "ward.hcl");
    // The first ward.hcl on the way up wins.
    std::fs::write(root.join("envs/ward.hcl"), "").unwrap();
    assert_eq!(
        discover(None, &deep).unwrap().unwrap().display,
        "../ward.hcl"
    );
    std::fs::remove_file(root.join("envs/ward.hcl")).unwrap();
    // A ward.hcl above the repository root is not this repository's.
    std::fs::remove_file(root.join("ward.hcl")).unwrap();
    std::fs::write(dir.path().join("ward.hcl"), "").unwrap();
    assert_eq!(discover(None, &deep).unwrap(), None);
    // --config wins, and must exist.
    let given = dir.path().join("ward.hcl");
    assert_eq!(discover(Some(&given), &deep).unwrap().unwrap().path, given);
    let e = discover(Some(&dir.path().join("nope.hcl")), &deep).unwrap_err();
    assert!(e.to_string().contains("does not exist"), "{e}");
    let e = discover(Some(dir.path()), &deep).unwrap_err();
    assert!(e.to_string().contains("is a directory"), "{e}");
}

#[test]
fn outside_a_repository_only_the_start_directory_counts() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.path().join("ward.hcl"), "").unwrap();
    assert_eq!(discover(None, &sub).unwrap(), None);
    assert_eq!(
        discover(None, dir.path()).unwrap().unwrap().display,
        "ward.hcl"
    );
}

#[test]
fn many_rule_blocks_load() {
    // 20k resource blocks: one parse, one map lookup per block (was a scan per block).
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "resource \"t{i}_x\" {{\n  holds_data = true\n}}\n"
        ));
    }
    let c = parse(&text).unwrap();
    assert_eq!(c.rules.len(), 20_000);
    text.push_str("resource \"t7_x\" {\n  holds_data = false\n}\n");
    let e = err(&text);
    assert!(e.contains("a second `resource \"t7_x\"`"), "{e}");
    assert!(e.contains("line 22"), "{e}");
}

#[test]
fn the_same_pattern_means_the_same_everywhere() {
    let c = parse(
        "policy {\n protect = [\"fakecloud_volume.data[0]\"]\n}\ncheck {\n protected = [\"fakecloud_volume.data[0]\"]\n}\ndrift {\n ignore {\n address = \"fakecloud_volume.data[0]\"\n owner = \"o\"\n expires = \"2030-01-01\"\n }\n}\n",
    )
    .unwrap();
    let pat = &c.policy.protect[0];
    assert_eq!(pat, &c.check.protected[0]);
    assert!(ward_model::pattern::address_matches(
        pat,
        "fakecloud_volume.data[0]"
    ));
    assert!(!ward_model::pattern::address_matches(
        pat,
        "fakecloud_volume.data[1]"
    ));
    assert!(!ward_model::pattern::address_matches(
        pat,
        "fakecloud_volume.data0"
    ));
    let ig = &c.drift.ignores[0];
    assert!(ig.matches("r", "fakecloud_volume.data[0]", "size"));
    assert!(!ig.matches("r", "fakecloud_volume.data[1]", "size"));
    assert!(!ig.matches("r", "fakecloud_volume.data0", "size"));
}

#[test]
fn plan_block_sets_the_default_threshold() {
    assert_eq!(parse("").unwrap().plan.fail_on, None);
    let c = parse("plan {\n  fail_on = \"replace\"\n}\n").unwrap();
    assert_eq!(c.plan.fail_on, Some(ward_model::Impact::Replace));
    let e = err("plan {\n  fail_on = \"danger\"\n}\n");
    assert!(e.starts_with("ward.hcl:2:"), "{e}");
    assert!(
        e.contains("`danger` is not an impact class") && e.contains("`data-loss`"),
        "{e}"
    );
    let e = err("plan {\n  fail_onn = \"replace\"\n}\n");
    assert!(e.contains("did you mean `fail_on`"), "{e}");
    let e = err("plan {}\nplan {}\n");
    assert!(e.contains("a second `plan` block"), "{e}");
}

/// `plan { expand }`: the low classes `ward plan` lists with their attributes when `--expand`
/// is not given; only `free` and `none` can be expanded.
#[test]
fn plan_block_sets_the_default_expansion() {
    let c = parse("").unwrap().plan;
    assert!(!c.expand_free && !c.expand_none);
    let c = parse("plan {\n  expand = [\"free\"]\n}\n").unwrap().plan;
    assert!(c.expand_free && !c.expand_none);
    let c = parse("plan {\n  expand = [\"none\", \"free\"]\n}\n")
        .unwrap()
        .plan;
    assert!(c.expand_free && c.expand_none);
    let e = err("plan {\n  expand = [\"free\", \"replace\"]\n}\n");
    assert!(e.starts_with("ward.hcl:2:"), "{e}");
    assert!(
        e.contains("`replace` is not a class that can be expanded") && e.contains("`free`"),
        "{e}"
    );
    let e = err("plan {\n  expand = \"free\"\n}\n");
    assert!(e.starts_with("ward.hcl:2:"), "{e}");
}

#[test]
fn render_blocks() {
    let c = parse(
        "render \"policy\" {\n  command = [\"./gen.sh\", \"out\"]\n  output = \"out/\"\n  compare = \"./generated\"\n  determinism = true\n  timeout = \"90s\"\n}\nrender \"b\" {\n  command = [\"make\"]\n  output = \"b.json\"\n}\n",
    )
    .unwrap();
    assert_eq!(c.renders.len(), 2);
    let r = &c.renders[0];
    assert_eq!(r.command, vec!["./gen.sh", "out"]);
    assert_eq!(
        (r.output.as_str(), r.compare.as_str()),
        ("out", "generated")
    );
    assert!(r.determinism);
    assert_eq!(r.timeout, std::time::Duration::from_secs(90));
    assert_eq!(c.renders[1].compare, "b.json");
    assert!(!c.renders[1].determinism);
    assert_eq!(c.renders[1].timeout, render::DEFAULT_RENDER_TIMEOUT);
}

#[test]
fn render_errors() {
    let e = err("render \"p\" {\n  command = [\"x\"]\n  outptu = \"o\"\n}\n");
    assert!(e.starts_with("ward.hcl:3:3: unknown key `outptu`"), "{e}");
    assert!(e.contains("did you mean `output`?"), "{e}");
    let e = err("render \"p\" {\n  command = [\"x\"]\n  output = \"../o\"\n}\n");
    assert!(e.contains("is not a path inside the repository"), "{e}");
    let e = err("render \"p\" {\n  command = [\"x\"]\n  output = \".\"\n}\n");
    assert!(e.contains("is not a path inside the repository"), "{e}");
    let e = err("render \"p\" {\n  output = \"o\"\n}\n");
    assert!(e.contains("`command` is required"), "{e}");
    let e = err("render \"p\" {\n  command = [\"x\"]\n}\n");
    assert!(e.contains("`output` is required"), "{e}");
    let e = err("render \"p\" {\n  command = [\"x\"]\n  output = \"o\"\n  timeout = \"0s\"\n}\n");
    assert!(e.contains("longer than 0s"), "{e}");
    let e = err("render \"p\" {\n  command = [\"x\"]\n  output = \"o\"\n}\nrender \"p\" {\n  command = [\"x\"]\n  output = \"q\"\n}\n");
    assert!(
        e.starts_with("ward.hcl:5:1: render \"p\" is declared twice"),
        "{e}"
    );
    let e = err("rendr \"p\" {\n}\n");
    assert!(e.contains("did you mean `render`?"), "{e}");
}

#[test]
fn rule_options() {
    let c = parse("check {\n  rule \"WARD-ANS-003\" {\n    max_timeout = 30\n    min_retries = 2\n  }\n  rule \"WARD-ANS-004\" {\n    guard_roles = [\"preflight\"]\n  }\n}\n").unwrap();
    assert_eq!(c.check.rules[0].options.len(), 2);
    assert_eq!(c.check.rules[0].options[0].key, "max_timeout");
    assert_eq!(c.check.rules[0].options[0].value, RuleValue::Count(30));
    assert_eq!(c.check.rules[0].options[0].line, 3);
    assert_eq!(
        c.check.rules[1].options[0].value,
        RuleValue::Strings(vec!["preflight".to_string()])
    );
    let e = err("check {\n  rule \"WARD-ANS-003\" {\n    max_timeout = \"x\"\n  }\n}\n");
    assert!(e.contains("whole number"), "{e}");
}

#[test]
fn check_excludes_and_generated_files() {
    let c = parse(
        "check {\n  exclude \"deprecated\" {\n    reason = \"kept for reference\"\n  }\n  generated \"atmos\" {\n    backend   = true\n    lock_file = true\n    paths     = [\"components/terraform\"]\n  }\n}\n",
    )
    .unwrap();
    let x = c.check.excluded("deprecated/old/main.tf").unwrap();
    assert_eq!(x.reason, "kept for reference");
    assert!(c.check.excluded("deprecated-not").is_none());
    assert!(c.check.excluded("live/deprecated").is_none());
    let g = c
        .check
        .generated_backend("components/terraform/vpc")
        .unwrap();
    assert_eq!(g.by, "atmos");
    assert!(c
        .check
        .generated_lock_file("components/terraform/vpc")
        .is_some());
    assert!(c.check.generated_backend("live/vpc").is_none());
    for (text, want) in [
        (
            "check {\n  exclude \"x\" {}\n}\n",
            "`check { exclude \"x\" }` has no reason",
        ),
        (
            "check {\n  exclude \"../x\" {\n    reason = \"r\"\n  }\n}\n",
            "outside the repository",
        ),
        (
            "check {\n  generated \"atmos\" {}\n}\n",
            "says the generator writes nothing",
        ),
        (
            "check {\n  generated \"atmos\" {\n    backend = true\n    paths = [\"/abs\"]\n  }\n}\n",
            "outside the repository",
        ),
        (
            "check {\n  generated \"atmos\" {\n    backnd = true\n  }\n}\n",
            "did you mean `backend`",
        ),
    ] {
        let e = err(text);
        assert!(e.contains(want), "{text:?}: {e}");
    }
}

#[test]
fn waivers_read_and_refuse() {
    let c = parse(
        "waiver {\n  address    = \"fakecloud_instance.web\"\n  attributes = [\"tags\", \"image\"]\n  reason     = \"the provider rewrites tags\"\n  owner      = \"platform\"\n  expires    = \"2027-01-31\"\n}\n",
    )
    .unwrap();
    let w = &c.waivers[0];
    assert_eq!(w.attributes, ["tags", "image"]);
    assert!(w.covers("fakecloud_instance.web", "tags"));
    assert!(!w.covers("fakecloud_instance.web", "size"));
    assert!(!w.covers("fakecloud_instance.db", "tags"));
    assert!(!w.expired(ward_time::parse_date("2027-01-31").unwrap()));
    assert!(w.expired(ward_time::parse_date("2027-02-01").unwrap()));
    for (text, want) in [
        ("waiver {\n attributes = [\"a\"]\n reason = \"r\"\n owner = \"o\"\n expires = \"2027-01-01\"\n}", "no `address`"),
        ("waiver {\n address = \"x_a.b\"\n reason = \"r\"\n owner = \"o\"\n expires = \"2027-01-01\"\n}", "no `attributes`"),
        ("waiver {\n address = \"x_a.b\"\n attributes = []\n reason = \"r\"\n owner = \"o\"\n expires = \"2027-01-01\"\n}", "at least one"),
        ("waiver {\n address = \"x_a.b\"\n attributes = [\"a\"]\n owner = \"o\"\n expires = \"2027-01-01\"\n}", "no `reason`"),
        ("waiver {\n address = \"x_a.b\"\n attributes = [\"a\"]\n reason = \"r\"\n expires = \"2027-01-01\"\n}", "no `owner`"),
        ("waiver {\n address = \"x_a.b\"\n attributes = [\"a\"]\n reason = \"r\"\n owner = \"o\"\n}", "no `expires`"),
        ("waiver {\n address = \"x_a.b\"\n attributes = [\"a\"]\n reason = \"r\"\n owner = \"o\"\n expires = \"2027-02-31\"\n}", "expires"),
        ("waiver {\n adress = \"x_a.b\"\n}", "did you mean `address`"),
    ] {
        let e = err(text);
        assert!(e.contains(want), "{text}: {e}");
        assert!(e.contains("help:"), "{e}");
    }
}
