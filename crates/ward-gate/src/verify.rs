//! `ward verify`: at apply time, confirm the saved binary plan is the plan that was gated.
//!
//! The saved plan is read through `<binary> show -json PLANFILE` (the binary that wrote it: the
//! product and version are checked against the gate record), normalized by the same reader as
//! every other ward command, and each change's full digest is compared with the record. With
//! the key the digests bind every raw value; without it, the record's Argon2id content binding
//! does ([`crate::digest::content_binding`]).
//!
//! `show -json` runs through ward-terraform ([`ward_terraform::show::saved_plan`], over
//! [`ward_exec`]) with a timeout ([`DEFAULT_TIMEOUT`], `ward verify --timeout`); its output goes
//! to an owner-only scratch file that ward-plan reads in bounded memory, and the file is removed
//! afterwards.

use crate::digest::digest_text;
use crate::error::GateError;
use crate::record::{Digests, Entry, GateRecord, Kept};
use crate::Outcome;
use serde::Serialize;
use std::cmp::Ordering;
use std::path::Path;
use std::time::Duration;
use ward_model::{Exit, Plan};

/// How long `show -json` may take unless `ward verify --timeout` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// What `ward verify` concluded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// The saved plan matches the gated plan, and the gate passed.
    pub ok: bool,
    /// The gate's outcome as recorded.
    pub gated_outcome: Outcome,
    /// Every difference, in plain lines (empty when `ok`).
    pub differences: Vec<String>,
    /// How many changes were compared.
    pub changes: usize,
}

impl VerifyReport {
    /// [`Exit::Pass`] verified, [`Exit::Fail`] not the gated plan (or the gate did not pass).
    pub fn exit(&self) -> Exit {
        if self.ok {
            Exit::Pass
        } else {
            Exit::Fail
        }
    }
}

/// Compares a plan (read from the saved plan file) with the gate record.
pub fn compare(record: &GateRecord, plan: &Plan) -> VerifyReport {
    compare_keyed(record, plan, None)
}

/// [`compare`] with the approval key: the record's signature must hold, and every change is
/// compared by its keyed digest (every raw value).
pub fn compare_keyed(record: &GateRecord, plan: &Plan, key: Option<&[u8]>) -> VerifyReport {
    compare_digests(record, plan, Digests::new(), key)
}

/// [`compare_keyed`] for a plan read change by change: `digests` holds what was kept of each
/// change the reader handed over (computed with the same `key`, [`Digests::add`]); `plan` gives
/// the version, and any changes it still holds are compared too. The same report as
/// [`compare_keyed`] on the whole plan.
pub fn compare_digests(
    record: &GateRecord,
    plan: &Plan,
    digests: Digests,
    key: Option<&[u8]>,
) -> VerifyReport {
    let signature = key.and_then(|k| record.check_signature(k).err());
    let kept = record.changes.iter().map(Kept::from).collect();
    compare_parts(record, kept, signature, plan, digests, key)
}

/// [`compare_digests`] of a record read by [`crate::record::load_kept`]: `record` without its
/// changes, and its changes `kept` (in the file's order), which are compared and dropped, with
/// the saved plan's digests, before the keyless binding's Argon2id takes its 64 MiB (#35 item
/// 2). The signature is checked over `kept` as the record lists them.
pub(crate) fn compare_kept(
    record: &GateRecord,
    kept: Vec<Kept>,
    plan: &Plan,
    digests: Digests,
    key: Option<&[u8]>,
) -> VerifyReport {
    let signature = key.and_then(|k| {
        record
            .signature_is(|| {
                crate::record::sign(record, k, |each| {
                    for c in &kept {
                        each(&c.canonical(&c.digest()));
                    }
                })
            })
            .err()
    });
    compare_parts(record, kept, signature, plan, digests, key)
}

/// [`compare_digests`] of `record` whose changes are `kept` (`record.changes` is not read),
/// `signature` what is wrong with its signature.
fn compare_parts(
    record: &GateRecord,
    kept: Vec<Kept>,
    signature: Option<String>,
    plan: &Plan,
    mut digests: Digests,
    key: Option<&[u8]>,
) -> VerifyReport {
    for c in &plan.changes {
        digests.add(c, key);
    }
    // The keyless binding's input, before the digests are consumed (only an unsigned record
    // without the key needs it).
    let content = (key.is_none() && record.signature.is_none()).then(|| digests.content_input());
    let mut diffs = Vec::new();
    diffs.extend(signature);
    if record.outcome != Outcome::Pass {
        diffs.push(format!(
            "the gate did not pass this plan (recorded outcome: {}); gate it again until it passes",
            record.outcome.describe()
        ));
    }
    let before_changes = diffs.len();
    let compared = digests.len();
    // Both lists are dropped here: the keyless binding's check below takes Argon2id's memory.
    compare_changes(kept, digests.into_entries(), &mut diffs);
    if let Some(content) = content.filter(|_| diffs.len() == before_changes) {
        // Every shown change matches: what is left is what the model does not show.
        diffs.extend(hidden_difference(record, &content));
    }
    if let (Some(rv), Some(pv)) = (&record.terraform_version, &plan.terraform_version) {
        if rv != pv {
            diffs.push(format!(
                "the gated plan was written by version {rv}, the saved plan by {pv}"
            ));
        }
    }
    VerifyReport {
        ok: diffs.is_empty(),
        gated_outcome: record.outcome,
        differences: diffs,
        changes: compared,
    }
}

/// Each difference between the record's changes and the saved plan's (`entries`), in the
/// record's address order, then the saved plan's changes never gated: both sorted in place by
/// address and deposed key and compared in one merge (no map over either, no copy of an
/// address: #35 item 2). Of two changes at one key (not a plan Terraform writes, nor a record
/// ward writes), the record's last in its file is compared, and the saved plan's last in the
/// record's order, as when the saved plan's changes were sorted into a record first.
fn compare_changes(mut record: Vec<Kept>, mut entries: Vec<Entry>, diffs: &mut Vec<String>) {
    fn key_of(c: &Kept) -> (&str, Option<&str>) {
        (&c.address, c.deposed.as_deref())
    }
    fn entry_key(e: &Entry) -> (&str, Option<&str>) {
        (e.address(), e.deposed())
    }
    // A record ward wrote is already in this order; an edited one is sorted stably, so the
    // last of a key in the file stays last.
    if !record.is_sorted_by(|a, b| key_of(a) <= key_of(b)) {
        record.sort_by(|a, b| key_of(a).cmp(&key_of(b)));
    }
    entries.sort_unstable_by(Entry::record_order);
    let name = |(addr, dep): (&str, Option<&str>)| match dep {
        Some(d) => format!("{addr} (deposed {d})"),
        None => addr.to_string(),
    };
    let mut a = last_of_each(&record, |x, y| key_of(x) == key_of(y)).peekable();
    let mut b = last_of_each(&entries, |x, y| entry_key(x) == entry_key(y)).peekable();
    let mut never = Vec::new();
    loop {
        let order = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(x), Some(y)) => key_of(x).cmp(&entry_key(y)),
        };
        match order {
            Ordering::Less => {
                let Some(x) = a.next() else { break };
                diffs.push(format!(
                    "{}: gated ({}), absent from the saved plan",
                    name(key_of(x)),
                    x.action()
                ));
            }
            Ordering::Greater => {
                let Some(y) = b.next() else { break };
                never.push(format!(
                    "{}: in the saved plan ({}), never gated",
                    name(entry_key(y)),
                    y.action.as_terraform()
                ));
            }
            Ordering::Equal => {
                let (Some(x), Some(y)) = (a.next(), b.next()) else {
                    break;
                };
                if !x.action_is(y.action) {
                    diffs.push(format!(
                        "{}: gated as {}, the saved plan does {}",
                        name(key_of(x)),
                        x.action(),
                        y.action.as_terraform()
                    ));
                } else if !x.digest_is(&y.digest) {
                    diffs.push(format!(
                        "{}: the change differs from the gated one ({} ≠ {})",
                        name(key_of(x)),
                        digest_text(&y.digest),
                        x.digest()
                    ));
                }
            }
        }
    }
    diffs.extend(never);
}

/// The last item of each run of `same` items in `v`.
fn last_of_each<'a, T>(
    v: &'a [T],
    same: impl Fn(&T, &T) -> bool + 'a,
) -> impl Iterator<Item = &'a T> + 'a {
    v.iter()
        .enumerate()
        .filter(move |&(i, x)| v.get(i + 1).is_none_or(|next| !same(x, next)))
        .map(|(_, x)| x)
}

/// Without the key, an unsigned record binds the plan's raw values through
/// [`GateRecord::content`]: the difference when they are not the gated ones, or when the record
/// has no binding (written by a ward before it had one).
fn hidden_difference(record: &GateRecord, content: &[u8; 32]) -> Option<String> {
    let Some(binding) = &record.content else {
        return Some("the gate record does not bind the values the report hides (sensitive values, string tails past 200 characters): it was written by an older ward; gate the plan again with `ward gate PLAN --record FILE`".into());
    };
    match crate::digest::content_matches_input(binding, content) {
        Ok(true) => None,
        Ok(false) => Some("the saved plan differs from the gated one in values the report does not show (a sensitive value, a string tail past 200 characters, a value of an object created or destroyed): it is not the gated plan; gate it again".into()),
        Err(e) => Some(e),
    }
}

/// The binary to run `show -json` with: the one given, else `tofu` for an OpenTofu record and
/// `terraform` otherwise.
pub fn default_binary(record: &GateRecord) -> &'static str {
    if record.product == "opentofu" {
        "tofu"
    } else {
        "terraform"
    }
}

/// Runs `<binary> -chdir=<dir> show -json <planfile>` (killed after `timeout`) and reads its
/// output. A relative `planfile` is taken from `dir`, as the binary takes it.
pub fn show_json(
    binary: &str,
    dir: &Path,
    planfile: &Path,
    timeout: Duration,
) -> Result<Plan, GateError> {
    let at = Shown {
        binary,
        dir,
        planfile: &dir.join(planfile),
        shown: planfile,
        timeout,
    };
    show_json_with(&at, ward_plan::ReadOptions::default(), None)
}

/// One `show -json` of a saved plan: the binary, the root it runs in (`-chdir`), the plan file
/// (as the binary is given it: absolute, or relative to `dir`), the plan file as the user named
/// it (for messages), and how long it may take.
#[derive(Debug, Clone, Copy)]
pub struct Shown<'a> {
    /// The binary (a name looked up on `PATH`, or a path).
    pub binary: &'a str,
    /// The root the plan was made in.
    pub dir: &'a Path,
    /// The saved plan file.
    pub planfile: &'a Path,
    /// The saved plan file as the user named it.
    pub shown: &'a Path,
    /// How long `show -json` may take.
    pub timeout: Duration,
}

/// [`show_json`], reading the plan change by change: each change's [`Digests`] entry (under
/// `key`) is computed as the reader hands it over and the change dropped, so memory holds the
/// digests, not the plan. Returns the plan without its changes, and the digests.
pub fn show_json_digests(at: &Shown<'_>, key: Option<&[u8]>) -> Result<(Plan, Digests), GateError> {
    let mut digests = Digests::new();
    let mut each = |c: ward_model::ResourceChange| digests.add(&c, key);
    let plan = show_json_with(at, ward_plan::ReadOptions::default(), Some(&mut each))?;
    Ok((plan, digests))
}

fn show_json_with(
    at: &Shown<'_>,
    options: ward_plan::ReadOptions,
    on_change: Option<&mut dyn FnMut(ward_model::ResourceChange)>,
) -> Result<Plan, GateError> {
    let Shown {
        binary,
        dir,
        planfile: plan_arg,
        shown: planfile,
        timeout,
    } = *at;
    if !plan_arg.is_file() {
        return Err(GateError::Verify(format!(
            "{}: no such plan file; give the file written by `terraform plan -out FILE`",
            planfile.display()
        )));
    }
    let shown = format!("{binary} show -json {}", planfile.display());
    let show = ward_terraform::show::ShowPlan {
        binary: std::ffi::OsStr::new(binary),
        dir,
        planfile: plan_arg,
        timeout,
        timeout_hint: "raise the limit with --timeout SECONDS",
    };
    ward_terraform::show::saved_plan(&show, options, on_change).map_err(|e| {
        use ward_terraform::show::ShowError;
        GateError::Verify(match e {
            ShowError::Scratch(e) => {
                format!("cannot create a scratch directory for `{binary} show -json`: {e}")
            }
            ShowError::Exec(
                e @ (ward_exec::ExecError::NotFound { .. }
                | ward_exec::ExecError::NotExecutable { .. }),
            ) => format!("{e}; give the binary that wrote the plan with --binary PATH"),
            ShowError::Exec(e) => e.to_string(),
            ShowError::Failed { status, stderr } => format!(
                "`{shown}` failed ({status}): {stderr}\nRun it in the root that made the plan (--chdir DIR), after `init`."
            ),
            ShowError::Read { error, path } => error.to_string().replace(&path, &shown),
        })
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::record::build_keyed;
    use sha2::Digest;

    fn plan(action: &str, before: &str, after: &str, before_sens: &str, after_sens: &str) -> Plan {
        let text = format!(
            r#"{{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{{"address":"fakecloud_volume.v","mode":"managed","type":"fakecloud_volume","name":"v","provider_name":"registry.terraform.io/ward/fakecloud","change":{{"actions":[{action}],"before":{before},"after":{after},"after_unknown":{{}},"before_sensitive":{before_sens},"after_sensitive":{after_sens}}}}}]}}"#
        );
        ward_plan::read_reader(text.as_bytes(), "plan.json").unwrap()
    }

    const KEY: &[u8] = b"k";

    /// An update of a sensitive `password` and a plain `note`.
    fn upd(secret: &str, long: &str) -> Plan {
        plan(
            r#""update""#,
            r#"{"password":"old","note":"a"}"#,
            &format!(r#"{{"password":"{secret}","note":"{long}"}}"#),
            "{}",
            r#"{"password":true}"#,
        )
    }

    fn differs(gated: &Plan, applied: &Plan) -> bool {
        let r = build_keyed(gated, "p", Outcome::Pass, Some(KEY));
        !compare_keyed(&r, applied, Some(KEY)).ok
    }

    #[test]
    fn the_record_binds_every_value_with_the_key() {
        // A delete of another object at the same address.
        let del = |id: &str| {
            plan(
                r#""delete""#,
                &format!(r#"{{"id":"{id}","size_gb":10}}"#),
                "null",
                "{}",
                "false",
            )
        };
        assert!(!differs(&del("vol-scratch"), &del("vol-scratch")));
        assert!(differs(&del("vol-scratch"), &del("vol-ledger")));
        // A create's after.
        let create = |n: u32| {
            plan(
                r#""create""#,
                "null",
                &format!(r#"{{"size_gb":{n}}}"#),
                "false",
                "{}",
            )
        };
        assert!(differs(&create(10), &create(10_000)));
        // A sensitive value, and a string tail past 200 characters.
        let long = "x".repeat(300);
        let longer = format!("{}y", "x".repeat(299));
        assert!(differs(&upd("new", &long), &upd("other", &long)));
        assert!(differs(&upd("new", &long), &upd("new", &longer)));
        assert!(!differs(&upd("new", &long), &upd("new", &long)));
    }

    /// Without the key: gate, then change only what the model does not show.
    #[test]
    fn without_the_key_the_record_binds_hidden_values() {
        let differs = |gated: &Plan, applied: &Plan| {
            let r = crate::record::build(gated, "p", Outcome::Pass);
            !compare(&r, applied).ok
        };
        let long = "x".repeat(300);
        let longer = format!("{}y", "x".repeat(299));
        let gated = upd("new", &long);
        assert!(
            !differs(&gated, &upd("new", &long)),
            "the same plan verifies"
        );
        assert!(
            differs(&gated, &upd("other", &long)),
            "a sensitive value changed"
        );
        assert!(
            differs(&gated, &upd("new", &longer)),
            "a string tail past 200 changed"
        );
        // A create's sensitive after, and a delete of another object.
        let create = |secret: &str| {
            plan(
                r#""create""#,
                "null",
                &format!(r#"{{"password":"{secret}"}}"#),
                "false",
                r#"{"password":true}"#,
            )
        };
        assert!(differs(&create("a"), &create("b")));
        let del = |id: &str| {
            plan(
                r#""delete""#,
                &format!(r#"{{"id":"{id}"}}"#),
                "null",
                "{}",
                "false",
            )
        };
        assert!(differs(&del("vol-scratch"), &del("vol-ledger")));
        assert!(!differs(&del("vol-scratch"), &del("vol-scratch")));
    }

    #[test]
    fn the_keyless_binding_is_salted_and_only_this_wards_is_accepted() {
        let p = plan(
            r#""update""#,
            r#"{"password":"old"}"#,
            r#"{"password":"1234"}"#,
            "{}",
            r#"{"password":true}"#,
        );
        let a = crate::record::build(&p, "p", Outcome::Pass);
        let b = crate::record::build(&p, "p", Outcome::Pass);
        let (ca, cb) = (a.content.clone().unwrap(), b.content.clone().unwrap());
        assert!(ca.starts_with(crate::digest::CONTENT_SCHEME), "{ca}");
        assert_ne!(ca, cb, "two records of one plan share no salt and no hash");
        assert!(compare(&a, &p).ok && compare(&b, &p).ok);
        // Nothing derived from the secret without the KDF: the hash is not a plain SHA-256.
        assert!(!ca.contains(&data_encoding::HEXLOWER.encode(&sha2::Sha256::digest(b"1234"))));
        // An older record (no binding) or an edited one is refused, naming what to do.
        let mut old = a.clone();
        old.content = None;
        let v = compare(&old, &p);
        assert!(!v.ok && v.differences[0].contains("older ward"), "{v:?}");
        for edited in [
            ca.replacen("m65536", "m8", 1),
            ca.replacen("argon2id", "argon2i", 1),
            format!("{ca}0"),
            ca.replace(':', ""),
            "".into(),
        ] {
            let mut r = a.clone();
            r.content = Some(edited.clone());
            let v = compare(&r, &p);
            assert!(!v.ok, "{edited}");
            assert!(v.differences[0].contains("gate the plan again"), "{v:?}");
        }
        // A shown difference is reported as such, not as a hidden one.
        let other = plan(r#""delete""#, r#"{"id":"x"}"#, "null", "{}", "false");
        let v = compare(&a, &other);
        assert!(
            v.differences.iter().all(|d| !d.contains("does not show")),
            "{v:?}"
        );
    }

    #[test]
    fn the_record_is_signed_and_an_edit_or_no_signature_is_refused() {
        let p = plan(r#""delete""#, r#"{"id":"v"}"#, "null", "{}", "false");
        let mut r = build_keyed(&p, "p", Outcome::ApprovalRequired, Some(KEY));
        assert!(r.signature.is_some());
        assert!(!compare_keyed(&r, &p, Some(KEY)).ok);
        r.outcome = Outcome::Pass;
        let v = compare_keyed(&r, &p, Some(KEY));
        assert!(!v.ok);
        assert!(
            v.differences[0].contains("signature does not match"),
            "{v:?}"
        );
        r.signature = None;
        let v = compare_keyed(&r, &p, Some(KEY));
        assert!(v.differences[0].contains("not signed"), "{v:?}");
        let good = build_keyed(&p, "p", Outcome::Pass, Some(KEY));
        assert!(compare_keyed(&good, &p, Some(KEY)).ok);
        assert!(!compare_keyed(&good, &p, Some(b"other")).ok);
    }
}
