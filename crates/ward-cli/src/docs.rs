//! `ward docs [TOPIC]`: the documents ward's messages point to, embedded in the binary, so every
//! pointer resolves wherever ward is installed (not only in its source tree).

use crate::error::CliError;
use ward_report::Exit;

/// One embedded document (see build.rs): deflated, inflated only when printed.
pub struct Doc {
    /// The name `ward docs TOPIC` takes (the file docs/TOPIC.md).
    pub topic: &'static str,
    /// Its first `# ` heading.
    pub title: &'static str,
    deflated: &'static [u8],
    len: usize,
}

impl Doc {
    /// The document's text.
    pub fn text(&self) -> Result<String, CliError> {
        let corrupt = |what: String| {
            CliError::new(format!("the embedded document `{}` {what}", self.topic))
                .hint("the ward binary is damaged: reinstall it")
        };
        let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(self.deflated, self.len)
            .map_err(|e| corrupt(format!("cannot be inflated ({e:?})")))?;
        String::from_utf8(bytes).map_err(|_| corrupt("is not UTF-8".to_string()))
    }
}

/// Every embedded document. Messages name them as `ward docs TOPIC`.
pub const TOPICS: &[Doc] = include!(concat!(env!("OUT_DIR"), "/docs.rs"));

/// Arguments of `ward docs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The document to print; without one, the list of documents.
    #[arg(value_name = "TOPIC")]
    topic: Option<String>,
}

/// Runs `ward docs`.
pub fn run(args: &Args) -> Result<Exit, CliError> {
    let Some(topic) = args.topic.as_deref() else {
        let mut list = String::from("ward docs TOPIC prints one of:\n");
        for doc in TOPICS {
            list.push_str(&format!(
                "  {:<13} {}\n",
                doc.topic,
                ward_report::escape::terminal(doc.title)
            ));
        }
        crate::output::write(&list, None)?;
        return Ok(Exit::Pass);
    };
    let topic = topic.trim_start_matches("docs/").trim_end_matches(".md");
    match TOPICS.iter().find(|d| d.topic == topic) {
        Some(doc) => {
            crate::output::write(&doc.text()?, None)?;
            Ok(Exit::Pass)
        }
        None => {
            let names: Vec<&str> = TOPICS.iter().map(|d| d.topic).collect();
            let close = ward_hcl::did_you_mean(topic, &names)
                .map(|n| format!("did you mean `{n}`? "))
                .unwrap_or_default();
            Err(
                CliError::new(format!("no document `{topic}`")).hint(format!(
                    "{close}`ward docs` lists them: {}",
                    names.join(", ")
                )),
            )
        }
    }
}
