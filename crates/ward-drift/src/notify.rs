//! Alerts on transitions: a JSON POST to a webhook.
//!
//! Sent only when the run has transitions (new, escalated or resolved findings); a run whose drift
//! merely persists sends nothing. The body is [`Payload`], or the shape a chat's incoming webhook
//! expects ([`NotifyFormat`]: a Slack message, a Microsoft Teams Adaptive Card), made from it
//! when it is sent ([`shaped`]).
//!
//! An alert is never lost to a webhook that is down: one that cannot be delivered is kept in the
//! history database (an `alert` record, [`ward_store::KINDS`]) and sent again, before any newer
//! one, by the next run of the same shard that has a `--notify` URL, whether or not that run has
//! transitions of its own ([`deliver`]). Delivery is at least once: a webhook that took an alert
//! but answered with an error gets it again.

use crate::report::Report;
use serde::Serialize;
use ward_store::{NewRecord, RecordQuery, Store, Transition};

/// The record kind of an alert in the history database.
pub const RECORD_KIND: &str = "alert";

/// The webhook's JSON body.
#[derive(Debug, Serialize)]
pub struct Payload<'a> {
    /// Always `ward-drift`.
    pub source: &'static str,
    /// The body's schema version.
    pub schema_version: u32,
    /// The run's id in the history database.
    pub run_id: i64,
    /// The shard, when sharded.
    pub shard: Option<&'a str>,
    /// A one-line summary, e.g. `2 new, 1 resolved`.
    pub summary: String,
    /// The transitions, sorted.
    pub transitions: &'a [Transition],
}

/// The shape of the webhook's body (`--notify-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NotifyFormat {
    /// ward's own JSON, [`Payload`].
    #[default]
    Ward,
    /// A Slack incoming webhook's message: `text` in Slack's mrkdwn.
    Slack,
    /// A Microsoft Teams incoming webhook (Workflows): a message holding one Adaptive Card.
    Teams,
}

/// At most this many transitions are listed in a chat message; the rest are counted.
pub const CHAT_LIMIT: usize = 40;

/// The body `format` expects, made from ward's payload (alerts are kept in the history in ward's
/// shape, so a kept alert is re-sent in the format of the run that sends it).
pub fn shaped(format: NotifyFormat, payload: &serde_json::Value) -> serde_json::Value {
    use serde_json::{json, Value};
    if format == NotifyFormat::Ward {
        return payload.clone();
    }
    let str_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut title = format!("ward drift: {}", str_of(payload, "summary"));
    if let Some(run) = payload.get("run_id").and_then(Value::as_i64) {
        title.push_str(&format!(" (run {run}"));
        match payload.get("shard").and_then(Value::as_str) {
            Some(s) if !s.is_empty() => title.push_str(&format!(", shard {s})")),
            _ => title.push(')'),
        }
    }
    let empty = Vec::new();
    let transitions = payload
        .get("transitions")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    // (kind, root, address, attribute, impact, previous impact)
    let rows: Vec<[String; 6]> = transitions
        .iter()
        .map(|t| {
            [
                str_of(t, "kind"),
                str_of(t, "root"),
                str_of(t, "address"),
                str_of(t, "attribute"),
                str_of(t, "impact"),
                str_of(t, "previous_impact"),
            ]
        })
        .collect();
    let more = rows.len().saturating_sub(CHAT_LIMIT);
    let impact = |r: &[String; 6]| {
        if r[5].is_empty() {
            r[4].clone()
        } else {
            format!("{} \u{2192} {}", r[5], r[4])
        }
    };
    match format {
        NotifyFormat::Ward => payload.clone(),
        NotifyFormat::Slack => {
            let mut text = format!("*{}*", slack_escape(&title));
            for r in rows.iter().take(CHAT_LIMIT) {
                text.push_str(&format!(
                    "\n\u{2022} {}: `{}` `{}` {} ({})",
                    slack_escape(&r[0]),
                    slack_code(&r[1]),
                    slack_code(&r[2]),
                    slack_escape(&r[3]),
                    slack_escape(&impact(r))
                ));
            }
            if more > 0 {
                text.push_str(&format!(
                    "\n\u{2026} and {more} more (`ward drift history`)"
                ));
            }
            json!({ "text": text })
        }
        NotifyFormat::Teams => {
            let mut facts: Vec<Value> = rows
                .iter()
                .take(CHAT_LIMIT)
                .map(|r| {
                    json!({
                        "title": r[0],
                        "value": format!("{} {} {} ({})", r[1], r[2], r[3], impact(r)),
                    })
                })
                .collect();
            if more > 0 {
                facts.push(
                    json!({ "title": "more", "value": format!("{more} more: ward drift history") }),
                );
            }
            json!({
                "type": "message",
                "attachments": [{
                    "contentType": "application/vnd.microsoft.card.adaptive",
                    "contentUrl": null,
                    "content": {
                        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
                        "type": "AdaptiveCard",
                        "version": "1.4",
                        "body": [
                            { "type": "TextBlock", "text": title, "weight": "Bolder", "size": "Medium", "wrap": true },
                            { "type": "FactSet", "facts": facts }
                        ]
                    }
                }]
            })
        }
    }
}

/// Text for Slack's mrkdwn: `&`, `<` and `>` escaped as Slack asks, so a value can neither
/// mention anyone nor form a link.
fn slack_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Text inside Slack inline code: escaped, and without backticks (which would end it).
fn slack_code(s: &str) -> String {
    slack_escape(s).replace('`', "'")
}

/// The body for a report.
pub fn payload(report: &Report) -> Payload<'_> {
    let mut counts = std::collections::BTreeMap::new();
    for t in &report.transitions {
        *counts.entry(t.kind.as_str()).or_insert(0usize) += 1;
    }
    let summary = counts
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    Payload {
        source: "ward-drift",
        schema_version: 1,
        run_id: report.run_id,
        shard: report.shard.as_deref(),
        summary,
        transitions: &report.transitions,
    }
}

/// Checks a `--notify` URL before anything runs, so that a run never writes its history and
/// only then finds it cannot tell anyone: an `http` or `https` URL with a host.
pub fn check_url(url: &str) -> Result<(), String> {
    // The URL itself is never quoted: its path or query is often the webhook's secret.
    let help = "give the webhook's whole URL, e.g. --notify https://hooks.example/ward-drift";
    let scheme = url.split_once("://").map(|(s, _)| s);
    if !matches!(scheme, Some("https" | "http")) {
        return Err(format!(
            "--notify: the webhook must be an https:// (or http://) URL; {help}"
        ));
    }
    let uri: ureq::http::Uri = url
        .parse()
        .map_err(|e| format!("--notify: not a URL ({e}); {help}"))?;
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("--notify: the URL names no host; {help}"));
    }
    Ok(())
}

/// The URL as a report may show it: scheme and host only. A webhook's path or query often is
/// its secret (chat webhooks carry their token there), and reports end up in CI logs and pull
/// requests.
pub fn redact(url: &str) -> String {
    let invalid = || "(an invalid URL)".to_string();
    let Ok(uri) = url.parse::<ureq::http::Uri>() else {
        return invalid();
    };
    match (uri.scheme_str(), uri.host()) {
        (Some(scheme), Some(host)) if !host.is_empty() => {
            let port = uri.port_u16().map(|p| format!(":{p}")).unwrap_or_default();
            format!("{scheme}://{host}{port}/…")
        }
        _ => invalid(),
    }
}

/// POSTs the report's transitions to `url` when there are any. Returns whether it sent.
pub fn send(url: &str, report: &Report) -> Result<bool, String> {
    send_as(url, NotifyFormat::Ward, report)
}

/// [`send`] in `format`.
pub fn send_as(url: &str, format: NotifyFormat, report: &Report) -> Result<bool, String> {
    if report.transitions.is_empty() {
        return Ok(false);
    }
    let body = serde_json::to_value(payload(report)).map_err(|e| e.to_string())?;
    post(url, &shaped(format, &body))?;
    Ok(true)
}

/// POSTs one alert body.
fn post(url: &str, body: &serde_json::Value) -> Result<(), String> {
    let text = serde_json::to_string(body).map_err(|e| e.to_string())?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(20)))
        .build()
        .into();
    agent
        .post(url)
        .header("Content-Type", "application/json")
        .header(
            "User-Agent",
            concat!("ward-drift/", env!("CARGO_PKG_VERSION")),
        )
        .send(text.as_str())
        .map_err(|e| {
            // ureq's message may quote the URL it was given: only the redacted one is shown.
            let e = e.to_string().replace(url, &redact(url));
            format!("the --notify webhook {} failed: {e}", redact(url))
        })?;
    Ok(())
}

/// What [`deliver`] sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Delivered {
    /// The run ids whose alerts were delivered, oldest first (earlier runs' kept alerts, then
    /// this run's).
    pub runs: Vec<i64>,
}

/// A kept alert: the latest `alert` record of its run says it is not delivered yet.
struct Kept {
    run: i64,
    body: serde_json::Value,
    /// This run's alert (not kept yet).
    new: bool,
}

/// Sends the alerts of this shard that earlier runs could not deliver, oldest first, then this
/// run's (when it has transitions), stopping at the first failure; records each outcome in
/// `store`. An alert that is not delivered (it failed, or an older one before it did) is kept
/// for the next run. `now` is when the outcome is recorded (RFC 3339, UTC).
pub fn deliver(
    store: &mut Store,
    url: &str,
    report: &Report,
    now: &str,
) -> Result<Delivered, String> {
    deliver_as(store, url, NotifyFormat::Ward, report, now)
}

/// [`deliver`], each alert sent in `format` (kept in the history in ward's shape).
pub fn deliver_as(
    store: &mut Store,
    url: &str,
    format: NotifyFormat,
    report: &Report,
    now: &str,
) -> Result<Delivered, String> {
    let shard = report.shard.as_deref().unwrap_or("");
    let mut queue = kept(store, shard)?;
    if !report.transitions.is_empty() {
        // This run's id is new: no record has it yet.
        let body = serde_json::to_value(payload(report)).map_err(|e| e.to_string())?;
        queue.push(Kept {
            run: report.run_id,
            body,
            new: true,
        });
    }
    let mut delivered = Delivered::default();
    let mut failure = None;
    for k in &queue {
        let sent = match &failure {
            None => post(url, &shaped(format, &k.body)),
            Some(_) => Err("an older alert could not be delivered first".to_string()),
        };
        let key = k.run.to_string();
        let record = match &sent {
            Ok(()) => serde_json::json!({ "delivered": true }),
            Err(e) => serde_json::json!({ "delivered": false, "error": e, "payload": k.body }),
        };
        // A kept alert that fails again is kept as it was.
        if sent.is_ok() || k.new {
            store
                .append_record(&NewRecord {
                    kind: RECORD_KIND,
                    root: shard,
                    key: &key,
                    recorded_at: now,
                    body: &record,
                })
                .map_err(|e| format!("the --notify alert could not be recorded: {e}"))?;
        }
        match sent {
            Ok(()) => delivered.runs.push(k.run),
            Err(e) if failure.is_none() => failure = Some(e),
            Err(_) => {}
        }
    }
    match failure {
        None => Ok(delivered),
        Some(e) => {
            let left = queue.len() - delivered.runs.len();
            Err(format!(
                "{e}; {left} alert{} kept in the history and sent again by the next run with --notify",
                if left == 1 { " is" } else { "s are" }
            ))
        }
    }
}

/// The alerts of `shard` not delivered yet, oldest first.
fn kept(store: &Store, shard: &str) -> Result<Vec<Kept>, String> {
    let rows = store
        .records(&RecordQuery {
            kind: RECORD_KIND,
            root: Some(shard),
            key: None,
            limit: 0,
        })
        .map_err(|e| format!("the kept --notify alerts cannot be read: {e}"))?;
    // Newest first: the first record of a run is its current state; its body is the one kept
    // with its first failure.
    let mut latest: std::collections::BTreeMap<i64, (bool, Option<serde_json::Value>)> =
        std::collections::BTreeMap::new();
    for row in rows {
        let Ok(run) = row.key.parse::<i64>() else {
            continue;
        };
        let delivered = row.body.get("delivered") == Some(&serde_json::Value::Bool(true));
        let payload = row.body.get("payload").cloned();
        let entry = latest.entry(run).or_insert((delivered, None));
        if entry.1.is_none() {
            entry.1 = payload;
        }
    }
    Ok(latest
        .into_iter()
        .filter_map(|(run, (delivered, body))| match (delivered, body) {
            (false, Some(body)) => Some(Kept {
                run,
                body,
                new: false,
            }),
            _ => None,
        })
        .collect())
}
