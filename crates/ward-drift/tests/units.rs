//! ward-drift's entry points that need no Terraform: shards, where the history is, the report's
//! invariant line and a webhook that fails. (The runs themselves are in `e2e.rs`, against real
//! Terraform.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;

use ward_drift::{Exit, Report};
use ward_store::{Location, Transition, TransitionKind};

fn report(exit: Exit) -> Report {
    Report {
        schema_version: 1,
        shard: None,
        discovered: 5,
        checked: 3,
        excluded: 2,
        declared_missing: 0,
        roots: Vec::new(),
        counts: BTreeMap::new(),
        transitions: vec![Transition {
            root: "app".into(),
            kind: TransitionKind::New,
            address: "fakecloud_volume.data".into(),
            attribute: "size".into(),
            impact: "replace".into(),
            previous_impact: None,
        }],
        suppressed: 0,
        expired_ignores: Vec::new(),
        problems: Vec::new(),
        exit,
        run_id: 0,
        started_at: None,
    }
}

#[test]
fn a_shard_is_k_of_n_with_k_at_most_n() {
    assert_eq!(ward_drift::parse_shard("1/1"), Ok((1, 1)));
    assert_eq!(ward_drift::parse_shard("2/2"), Ok((2, 2)));
    assert_eq!(ward_drift::parse_shard(" 3 / 8 "), Ok((3, 8)));
    for bad in ["3/2", "0/2", "1/0", "2", "a/b"] {
        let e = ward_drift::parse_shard(bad).unwrap_err();
        assert!(e.contains("expected K/N with 1 <= K <= N"), "{bad}: {e}");
    }
}

#[test]
fn db_is_a_file_unless_it_is_a_postgres_url() {
    let file =
        ward_drift::history_location_in(Some(Path::new("runs/history.db")), None, None, None, None)
            .unwrap();
    assert!(
        matches!(&file, Location::Sqlite(p) if p == Path::new("runs/history.db")),
        "a file"
    );
    let pg = ward_drift::history_location_in(
        Some(Path::new("postgres://ward@db.internal/ward")),
        None,
        None,
        None,
        None,
    )
    .unwrap();
    assert!(matches!(pg, Location::Postgres(_)), "a postgres URL");
    // Read as a URL, so a password in it is refused (a file of that name would be accepted).
    let e = ward_drift::history_location_in(
        Some(Path::new("postgres://ward:pw@db/ward")),
        None,
        None,
        None,
        None,
    )
    .err()
    .unwrap();
    assert!(
        e.to_string()
            .contains("--db: the PostgreSQL URL carries a password"),
        "{e}"
    );
}

#[test]
fn without_db_or_url_the_history_is_the_default_the_caller_gave() {
    let d = Path::new("/home/u/.local/state/ward/drift.sqlite");
    let at = ward_drift::history_location_in(None, None, None, None, Some(d)).unwrap();
    assert!(matches!(&at, Location::Sqlite(p) if p == d), "{at:?}");
    // No default (neither XDG_STATE_HOME nor HOME was set): refused with what to do.
    let e = ward_drift::history_location_in(None, None, None, None, None).unwrap_err();
    assert!(e.to_string().contains("pass --db FILE"), "{e}");
}

#[test]
fn the_invariant_counts_every_root() {
    assert_eq!(
        report(Exit::Pass).invariant(),
        "discovered 5 = checked 3 + excluded 2"
    );
    // Roots with stack sites are checked once per site: the outcomes count those checks.
    let mut r = report(Exit::Pass);
    for site in ["dc0", "dc1"] {
        let mut x = ward_drift::RootResult::new(
            &ward_drift::instance_name("network", site),
            "network",
            ward_drift::outcome::Outcome::Clean,
            vec![],
        );
        x.site = Some(site.into());
        r.roots.push(x);
    }
    assert_eq!(
        r.invariant(),
        "discovered 5 = checked 3 + excluded 2 (2 checks of roots at their stack sites, one per site)"
    );
    assert_eq!(ward_drift::instance_name("network", "default"), "network");
    assert_eq!(r.roots[1].name, "network/dc1");
}

/// A URL nothing listens on: port 9 (discard) of the loopback refuses at once. Its path stands
/// for a webhook's secret, which no message may show.
const DEAD: &str = "http://127.0.0.1:9/hook-s3cret";

/// A webhook receiver on the loopback that answers `answers` requests (each with its status)
/// and returns their raw text; it waits at most five seconds for each (a send that never posts
/// fails the test there).
fn receiver(answers: &[u16]) -> (String, std::thread::JoinHandle<Vec<String>>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook-s3cret", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    let answers = answers.to_vec();
    let server = std::thread::spawn(move || {
        let mut requests = Vec::new();
        for status in answers {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            let mut s = loop {
                match listener.accept() {
                    Ok((s, _)) => break s,
                    Err(_) if std::time::Instant::now() < deadline => {
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                    Err(e) => panic!("no request came: {e}"),
                }
            };
            s.set_nonblocking(false).unwrap();
            s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
                .unwrap();
            let mut got = Vec::new();
            let mut buf = [0u8; 4096];
            // Headers, then the JSON body (it ends the request: the last byte is its `}`).
            while !got.ends_with(b"}") {
                let n = s.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            let answer =
                format!("HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            s.write_all(answer.as_bytes()).unwrap();
            requests.push(String::from_utf8_lossy(&got).into_owned());
        }
        requests
    });
    (url, server)
}

/// The run ids of the alerts a receiver got, in order.
fn runs_posted(requests: &[String]) -> Vec<i64> {
    requests
        .iter()
        .map(|r| {
            let body = &r[r.find("\r\n\r\n").unwrap() + 4..];
            let v: serde_json::Value = serde_json::from_str(body).unwrap();
            v["run_id"].as_i64().unwrap()
        })
        .collect()
}

/// A report of run `run`, with one new finding or none.
fn run_report(run: i64, transitions: bool) -> Report {
    let mut r = report(if transitions {
        Exit::DriftAlert
    } else {
        Exit::Pass
    });
    r.run_id = run;
    if !transitions {
        r.transitions.clear();
    }
    r
}

#[test]
fn a_failed_webhook_is_a_problem_and_no_pass() {
    let mut store = ward_store::Store::open_in_memory().unwrap();
    let mut r = report(Exit::Pass);
    let e = ward_drift::notify::deliver(&mut store, DEAD, &r, "2026-11-29T00:00:00Z").unwrap_err();
    assert!(
        e.starts_with("the --notify webhook http://127.0.0.1:9/… failed: "),
        "{e}"
    );
    assert!(
        !e.contains("s3cret"),
        "the webhook's path is its secret: {e}"
    );
    r.webhook_failed(&e);
    assert_eq!(r.exit, Exit::Usage);
    assert_eq!(r.problems, [e]);
    // A run that already ends otherwise keeps its own exit.
    let mut r = report(Exit::DriftAlert);
    r.webhook_failed("the --notify webhook failed");
    assert_eq!(r.exit, Exit::DriftAlert);
    // With nothing to send and nothing kept, nothing is sent and nothing fails.
    let mut fresh = ward_store::Store::open_in_memory().unwrap();
    let quiet = run_report(7, false);
    assert_eq!(
        ward_drift::notify::deliver(&mut fresh, DEAD, &quiet, "2026-11-29T00:00:00Z"),
        Ok(Default::default())
    );
}

/// An alert the webhook did not take is kept in the history and sent again, before any newer
/// one, by the next run with --notify, even when that run has no transition of its own (an
/// alert used to be lost for good: the next run had nothing to send). Runs of another shard
/// leave it alone; a delivered alert is never sent again.
#[test]
fn an_undelivered_alert_is_kept_and_sent_by_the_next_run() {
    let mut store = ward_store::Store::open_in_memory().unwrap();
    let now = "2026-11-29T00:00:00Z";
    let deliver = |store: &mut ward_store::Store, url: &str, r: &Report| {
        ward_drift::notify::deliver(store, url, r, now)
    };
    // Run 1's alert fails: kept.
    let e = deliver(&mut store, DEAD, &run_report(1, true)).unwrap_err();
    assert!(
        e.ends_with("1 alert is kept in the history and sent again by the next run with --notify"),
        "{e}"
    );
    // Run 2 has no transition; it delivers run 1's alert.
    let (url, server) = receiver(&[200]);
    let sent = deliver(&mut store, &url, &run_report(2, false)).unwrap();
    assert_eq!(sent.runs, [1]);
    assert_eq!(runs_posted(&server.join().unwrap()), [1]);
    // Runs 3 and 4 fail (the webhook is down); run 5 sends both, oldest first, then its own.
    deliver(&mut store, DEAD, &run_report(3, true)).unwrap_err();
    let e = deliver(&mut store, DEAD, &run_report(4, true)).unwrap_err();
    assert!(e.contains("; 2 alerts are kept"), "{e}");
    // Another shard's run does not send them.
    let mut other = run_report(5, false);
    other.shard = Some("2/2".into());
    assert_eq!(deliver(&mut store, DEAD, &other), Ok(Default::default()));
    let (url, server) = receiver(&[200, 200, 200]);
    let sent = deliver(&mut store, &url, &run_report(6, true)).unwrap();
    assert_eq!(sent.runs, [3, 4, 6]);
    assert_eq!(runs_posted(&server.join().unwrap()), [3, 4, 6]);
    // Nothing is left: a run without transitions sends nothing (nothing listens on DEAD).
    assert_eq!(
        deliver(&mut store, DEAD, &run_report(7, false)),
        Ok(Default::default())
    );
    // A webhook that answers an error has not taken the alert: the first stays kept, and the
    // one after it is not sent before it.
    let (url, server) = receiver(&[500]);
    deliver(&mut store, DEAD, &run_report(8, true)).unwrap_err();
    let e = deliver(&mut store, &url, &run_report(9, true)).unwrap_err();
    assert!(e.contains("; 2 alerts are kept"), "{e}");
    // The error is the webhook's own, not that of the alerts held back behind it.
    assert!(
        e.starts_with("the --notify webhook http://127.0.0.1:"),
        "{e}"
    );
    assert!(e.contains("500"), "{e}");
    assert_eq!(runs_posted(&server.join().unwrap()), [8]);
    let (url, server) = receiver(&[200, 200]);
    assert_eq!(
        deliver(&mut store, &url, &run_report(10, false))
            .unwrap()
            .runs,
        [8, 9]
    );
    assert_eq!(runs_posted(&server.join().unwrap()), [8, 9]);
    // Delivered up to a failure: what is left is counted, the delivered ones are not.
    deliver(&mut store, DEAD, &run_report(11, true)).unwrap_err();
    deliver(&mut store, DEAD, &run_report(12, true)).unwrap_err();
    let (url, server) = receiver(&[200, 500]);
    let e = deliver(&mut store, &url, &run_report(13, true)).unwrap_err();
    assert!(e.contains("; 2 alerts are kept"), "{e}");
    assert_eq!(runs_posted(&server.join().unwrap()), [11, 12]);
    let (url, server) = receiver(&[200, 200]);
    let sent = deliver(&mut store, &url, &run_report(14, false)).unwrap();
    assert_eq!(sent.runs, [12, 13]);
    assert_eq!(runs_posted(&server.join().unwrap()), [12, 13]);
}

/// A --notify URL is checked before anything runs (it used to be refused only when the POST
/// failed, after the run's history was written); messages never show its path.
#[test]
fn a_notify_url_must_be_http_with_a_host() {
    for ok in [
        "https://hooks.example/ward-drift",
        "http://127.0.0.1:8080/hook",
    ] {
        assert_eq!(ward_drift::notify::check_url(ok), Ok(()), "{ok}");
    }
    for (bad, says) in [
        (
            "hooks.example/ward-drift",
            "must be an https:// (or http://) URL",
        ),
        (
            "ftp://hooks.example/s3cret",
            "must be an https:// (or http://) URL",
        ),
        ("", "must be an https:// (or http://) URL"),
        ("https:///s3cret", "not a URL"),
        ("https://hooks example/s3cret", "not a URL"),
    ] {
        let e = ward_drift::notify::check_url(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(e.contains("e.g. --notify https://"), "{bad}: {e}");
        assert!(!e.contains("s3cret"), "{bad}: {e}");
    }
    assert_eq!(
        ward_drift::notify::redact("https://hooks.example:8443/T0/B1/s3cret?x=1"),
        "https://hooks.example:8443/…"
    );
    for no_host in [
        "http://:8080/s3cret",
        "https://@/s3cret",
        "/s3cret",
        "s3cret",
    ] {
        assert_eq!(
            ward_drift::notify::redact(no_host),
            "(an invalid URL)",
            "{no_host}"
        );
    }
}

#[test]
fn outcomes_are_named_and_sorted_into_failing_and_checked() {
    use ward_drift::outcome::Outcome;
    let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
    assert_eq!(
        names,
        [
            "clean",
            "drifted",
            "output-only",
            "pending-change",
            "missing-state",
            "state-replaced",
            "locked",
            "error",
            "excluded",
            "mismatch",
            "torn-down"
        ]
    );
    for o in Outcome::ALL {
        assert_eq!(o.to_string(), o.as_str());
        assert_eq!(serde_json::to_value(o).unwrap(), o.as_str());
    }
    let failing: Vec<Outcome> = Outcome::ALL.into_iter().filter(|o| o.fails()).collect();
    assert_eq!(
        failing,
        [
            Outcome::MissingState,
            Outcome::StateReplaced,
            Outcome::Error,
            Outcome::Mismatch
        ]
    );
    let checked: Vec<Outcome> = Outcome::ALL
        .into_iter()
        .filter(|o| o.checked_drift())
        .collect();
    assert_eq!(
        checked,
        [
            Outcome::Clean,
            Outcome::Drifted,
            Outcome::OutputOnly,
            Outcome::PendingChange
        ]
    );
}

#[test]
fn the_payload_counts_transitions_by_kind() {
    let mut r = report(Exit::DriftAlert);
    let first = r.transitions[0].clone();
    r.transitions.push(Transition {
        address: "fakecloud_volume.logs".into(),
        ..first.clone()
    });
    r.transitions.push(Transition {
        kind: TransitionKind::Resolved,
        address: "fakecloud_volume.old".into(),
        ..first
    });
    assert_eq!(ward_drift::notify::payload(&r).summary, "2 new, 1 resolved");
}

#[test]
fn send_posts_only_when_there_are_transitions() {
    let (url, server) = receiver(&[200]);
    assert_eq!(
        ward_drift::notify::send(&url, &report(Exit::DriftAlert)),
        Ok(true)
    );
    let requests = server.join().unwrap();
    assert!(
        requests[0].starts_with("POST /hook-s3cret "),
        "{requests:?}"
    );
    assert!(
        requests[0].contains("\"summary\":\"1 new\""),
        "{requests:?}"
    );
    let mut quiet = report(Exit::Pass);
    quiet.transitions.clear();
    // Nothing listens any more: not sending is the only way to succeed.
    assert_eq!(ward_drift::notify::send(&url, &quiet), Ok(false));
}

#[test]
fn pending_changes_are_the_changes_sorted_with_their_action() {
    let change = |address: &str, action: &str| {
        format!(
            r#"{{"address":"{address}","mode":"managed","type":"fakecloud_volume","name":"{}","provider_name":"registry.terraform.io/ward/fakecloud","change":{{"actions":[{action}],"before":{{}},"after":{{}}}}}}"#,
            address.rsplit('.').next().unwrap()
        )
    };
    let json = format!(
        r#"{{"format_version":"1.2","terraform_version":"1.15.5","resource_changes":[{},{},{}]}}"#,
        change("fakecloud_volume.b", r#""update""#),
        change("fakecloud_volume.c", r#""no-op""#),
        change("fakecloud_volume.a", r#""delete""#),
    );
    let plan = ward_plan::read_reader(json.as_bytes(), "plan.json").unwrap();
    assert_eq!(
        ward_drift::outcome::pending_changes(&plan),
        ["fakecloud_volume.a (delete)", "fakecloud_volume.b (update)"]
    );
}

/// The JSON body of a raw request the receiver got.
fn body_of(request: &str) -> serde_json::Value {
    serde_json::from_str(&request[request.find("\r\n\r\n").unwrap() + 4..]).unwrap()
}

/// A report whose one transition holds what a chat would render as markup: a Slack mention, a
/// link and a backtick.
fn hostile_report() -> Report {
    let mut r = report(Exit::DriftAlert);
    r.run_id = 7;
    r.shard = Some("2/4".into());
    r.transitions[0].address =
        "fakecloud_volume.x[\"<!channel> <https://evil.example|y>`\"]".into();
    r.transitions.push(Transition {
        root: "db".into(),
        kind: TransitionKind::Escalated,
        address: "fakecloud_instance.db".into(),
        attribute: "image".into(),
        impact: "data-loss".into(),
        previous_impact: Some("in-place".into()),
    });
    r
}

#[test]
fn slack_and_teams_bodies_have_the_shapes_their_webhooks_take() {
    use ward_drift::notify::{payload, shaped, NotifyFormat};
    let r = hostile_report();
    let ward = serde_json::to_value(payload(&r)).unwrap();
    assert_eq!(
        shaped(NotifyFormat::Ward, &ward),
        ward,
        "ward's own shape is the payload"
    );

    // Slack: an object with one `text` in mrkdwn; a value can neither mention nor link.
    let slack = shaped(NotifyFormat::Slack, &ward);
    let obj = slack.as_object().unwrap();
    assert_eq!(obj.keys().collect::<Vec<_>>(), ["text"], "{slack}");
    let text = obj["text"].as_str().unwrap();
    assert!(
        text.starts_with("*ward drift: 1 escalated, 1 new (run 7, shard 2/4)*"),
        "{text}"
    );
    assert!(
        text.contains(
            "\u{2022} escalated: `db` `fakecloud_instance.db` image (in-place \u{2192} data-loss)"
        ),
        "{text}"
    );
    assert!(
        !text.contains("<!channel>") && !text.contains("<https://"),
        "{text}"
    );
    assert!(text.contains("&lt;!channel&gt;"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");

    // Teams: a message with one Adaptive Card: a title and one fact per transition.
    let teams = shaped(NotifyFormat::Teams, &ward);
    assert_eq!(teams["type"], "message", "{teams}");
    let att = teams["attachments"].as_array().unwrap();
    assert_eq!(att.len(), 1);
    assert_eq!(
        att[0]["contentType"],
        "application/vnd.microsoft.card.adaptive"
    );
    let card = &att[0]["content"];
    assert_eq!(card["type"], "AdaptiveCard");
    assert_eq!(card["version"], "1.4");
    assert_eq!(card["body"][0]["type"], "TextBlock");
    assert_eq!(
        card["body"][0]["text"],
        "ward drift: 1 escalated, 1 new (run 7, shard 2/4)"
    );
    let facts = card["body"][1]["facts"].as_array().unwrap();
    assert_eq!(card["body"][1]["type"], "FactSet");
    assert_eq!(facts.len(), 2, "{teams}");
    assert_eq!(facts[0]["title"], "new");
    assert_eq!(facts[1]["title"], "escalated");
    assert!(facts[1]["value"]
        .as_str()
        .unwrap()
        .contains("(in-place \u{2192} data-loss)"));
}

#[test]
fn a_chat_message_lists_at_most_the_limit_and_counts_the_rest() {
    use ward_drift::notify::{payload, shaped, NotifyFormat, CHAT_LIMIT};
    let mut r = report(Exit::DriftAlert);
    let one = r.transitions[0].clone();
    r.transitions = (0..CHAT_LIMIT + 5)
        .map(|i| Transition {
            address: format!("fakecloud_volume.v{i}"),
            ..one.clone()
        })
        .collect();
    let ward = serde_json::to_value(payload(&r)).unwrap();
    let slack = shaped(NotifyFormat::Slack, &ward);
    let text = slack["text"].as_str().unwrap();
    assert_eq!(text.lines().count(), 1 + CHAT_LIMIT + 1, "{text}");
    assert!(
        text.ends_with("\u{2026} and 5 more (`ward drift history`)"),
        "{text}"
    );
    let teams = shaped(NotifyFormat::Teams, &ward);
    let facts = teams["attachments"][0]["content"]["body"][1]["facts"]
        .as_array()
        .unwrap();
    assert_eq!(facts.len(), CHAT_LIMIT + 1);
    assert_eq!(facts[CHAT_LIMIT]["value"], "5 more: ward drift history");
}

/// Each format, posted to a loopback receiver, arrives as that shape; an alert kept by a failed
/// run is sent again in the format of the run that sends it.
#[test]
fn each_format_reaches_a_loopback_webhook_and_kept_alerts_follow_the_sending_run() {
    use ward_drift::notify::{deliver_as, send_as, NotifyFormat};
    let r = hostile_report();
    for (format, check) in [
        (NotifyFormat::Slack, "text"),
        (NotifyFormat::Teams, "attachments"),
        (NotifyFormat::Ward, "transitions"),
    ] {
        let (url, server) = receiver(&[200]);
        assert_eq!(send_as(&url, format, &r), Ok(true), "{format:?}");
        let got = server.join().unwrap();
        assert!(
            got[0].contains("Content-Type: application/json")
                || got[0].contains("content-type: application/json"),
            "{}",
            got[0]
        );
        assert!(
            body_of(&got[0]).get(check).is_some(),
            "{format:?}: {}",
            got[0]
        );
    }
    let mut store = ward_store::Store::open_in_memory().unwrap();
    let first = run_report(1, true);
    deliver_as(
        &mut store,
        DEAD,
        NotifyFormat::Slack,
        &first,
        "2026-11-29T00:00:00Z",
    )
    .unwrap_err();
    let (url, server) = receiver(&[200]);
    let sent = deliver_as(
        &mut store,
        &url,
        NotifyFormat::Teams,
        &run_report(2, false),
        "2026-11-30T00:00:00Z",
    )
    .unwrap();
    assert_eq!(sent.runs, vec![1]);
    let got = server.join().unwrap();
    assert_eq!(
        body_of(&got[0])["type"],
        "message",
        "the kept alert went out as Teams: {}",
        got[0]
    );
}
