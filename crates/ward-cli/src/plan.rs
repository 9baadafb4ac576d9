//! `ward plan`: classify every change in a plan by what it costs the running deployment.

use crate::error::CliError;
use crate::output::{self, ColorChoice};
use clap::ValueEnum;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use ward_classify::outcome::GateOptions;
use ward_model::Impact;
use ward_report::format::Command;
use ward_report::{Exit, Expand, Format, RenderOptions, DEFAULT_MARKDOWN_LIMIT};
use ward_rules::Knowledge;

/// Arguments of `ward plan`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Classify every change in a plan by what it costs the running deployment",
    long_about = "Classify every change in a plan by what it costs the running deployment.\n\n\
Reads the JSON form of a saved plan (`terraform show -json tfplan` or `tofu show -json tfplan`) \
and gives each resource change an impact class: none < free < in-place < interrupt < replace < \
data-loss. For every change above free it says what will happen, why, which identity attributes \
change and which rule decided (a create above free: what it sets); `--expand free,none` lists \
the free and none changes with their attributes too. Values marked sensitive are never printed.\n\n\
Every managed resource type in the plan must be classified by a built-in pack or by ward.hcl: \
otherwise the run fails with exit 3 (the coverage gate), naming each unclassified type.",
    after_help = "Examples:\n  \
terraform plan -out=tfplan && terraform show -json tfplan > plan.json\n  \
ward plan plan.json\n  \
ward plan plan.json --fail-on replace\n  \
ward plan plan.json --expand free,none\n  \
tofu show -json tfplan | ward plan - --format markdown -o comment.md\n\n\
Exit codes: 0 pass; 1 a change at or above --fail-on; 2 usage error, unreadable input or errored \
plan; 3 coverage failure (unclassified types). See `ward docs exit-codes`."
)]
pub struct Args {
    /// The plan as JSON (`terraform show -json tfplan`), or `-` to read standard input.
    #[arg(value_name = "PLAN_JSON")]
    plan: String,

    /// Report format.
    #[arg(long, value_parser = output::format(Command::Plan), default_value = "terminal")]
    format: Format,

    /// Fail (exit 1) when any change is of this class or worse. Default: `plan { fail_on }` in
    /// ward.hcl, else no threshold.
    #[arg(long, value_name = "CLASS", value_parser = impact_class())]
    fail_on: Option<Impact>,

    /// Rule file to use instead of the ward.hcl found at the repository root.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Report unclassified resource types without failing the coverage gate (exit 3). Their
    /// changes still count as reaching any --fail-on threshold: their cost is unknown.
    #[arg(long)]
    allow_unclassified: bool,

    /// Report an errored plan (planning failed part-way) without exiting 2 for that alone.
    #[arg(long)]
    allow_errored: bool,

    /// Colour the terminal report: auto = only on a terminal and when NO_COLOR is not set.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,

    /// The most characters the Markdown report may have; longer reports are summarised and say
    /// how many entries they left out.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MARKDOWN_LIMIT as u64,
          value_parser = clap::value_parser!(u64).range(ward_report::MIN_MARKDOWN_LIMIT as u64..))]
    markdown_limit: u64,

    /// List the changes of these low classes with their attributes in the terminal and
    /// Markdown reports (Markdown: each in a collapsed block): `free` shows what each free
    /// change sets or changes, `none` lists the no-ops and reads. Comma-separated. Default:
    /// `plan { expand }` in ward.hcl, else neither. The JSON report always carries every
    /// change's attributes.
    #[arg(long, value_enum, value_name = "CLASS", value_delimiter = ',')]
    expand: Vec<ExpandArg>,

    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `--expand`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExpandArg {
    /// Each free change with its attributes (a create's: what it sets).
    Free,
    /// Each none change (no-op, read, forget), not only their count.
    None,
}

fn expand(classes: &[ExpandArg]) -> Expand {
    Expand {
        free: classes.contains(&ExpandArg::Free),
        none: classes.contains(&ExpandArg::None),
    }
}

/// An impact class on the command line: clap's possible values (and their help) are the model's
/// classes, lowest first ([`Impact::ALL`], [`Impact::meaning`]), parsed by `Impact`'s `FromStr`.
pub fn impact_class() -> impl clap::builder::TypedValueParser<Value = Impact> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(Impact::ALL.map(|i| PossibleValue::new(i.as_str()).help(i.meaning())))
        .try_map(|s| s.parse::<Impact>())
}

/// Runs `ward plan`.
pub fn run(args: Args) -> Result<Exit, CliError> {
    let (knowledge, settings) = crate::knowledge::load_with_plan(args.config.as_deref())?;
    if args.plan == "-" && std::io::stdin().is_terminal() {
        return Err(
            CliError::new("`-` reads the plan from standard input, but standard input is a terminal")
                .hint("pipe the plan in: `terraform show -json tfplan | ward plan -`, or give the path of a plan JSON file"),
        );
    }
    let to_file = args.output.is_some();
    let render = RenderOptions {
        format: args.format,
        color: args.format == Format::Terminal && args.color.enabled(to_file),
        markdown_limit: usize::try_from(args.markdown_limit).unwrap_or(usize::MAX),
        expand: if args.expand.is_empty() {
            Expand {
                free: settings.expand_free,
                none: settings.expand_none,
            }
        } else {
            expand(&args.expand)
        },
    };
    // Each change is classified as soon as it is read and then dropped: memory holds slim
    // verdicts and what the report prints, not the whole plan or whole verdicts. The JSON
    // report is written as the plan is read (`ward_report::json::Stream`: each change's record
    // as soon as it is classified, the summary after them); for the terminal and Markdown
    // reports each change's entry is rendered then (`ward_report::Keep`) and the report is
    // written once the plan is read.
    let classify = ward_classify::Options {
        allow_unclassified: args.allow_unclassified,
    };
    let gate = GateOptions {
        fail_on: args.fail_on.or(settings.fail_on),
        allow_errored: args.allow_errored,
    };
    let knowledge = Arc::new(knowledge);
    let reading = read_options(&render, &knowledge);
    let (assessment, outcome) = if args.format == Format::Json {
        json(&args, reading, &knowledge, &classify, &gate)?
    } else {
        let mut keep = ward_report::Keep::new(&render);
        let a = ward_classify::pipeline::assess_read(
            |f| read(&args.plan, reading, f),
            &knowledge,
            &classify,
            &gate,
            |v| keep.keep_or_count(v),
        )?;
        notes(&a.notes);
        output::stream(args.output.as_deref(), |w| {
            ward_report::write_kept(&a.assessment, &a.outcome, &render, &keep, &a.order, w)
        })?;
        (a.assessment, a.outcome)
    };
    if let Some(path) = &args.output {
        let (lead, rest) = ward_report::outcome::result_words(&assessment, &outcome);
        eprintln!(
            "ward: wrote the {} report to {}; result: {lead}: {rest} (exit {})",
            args.format.name(),
            path.display(),
            outcome.exit.code()
        );
    }
    Ok(outcome.exit)
}

/// What `ward plan` reads of the plan for `render`: never the content fingerprints (only keyed
/// approval digests look at them), what a delete removes only when the report shows it, and
/// what a create sets only when the report shows it or its type's create may cost more than
/// free or overwrite what exists (the classifier reads it then, and the report lists it).
fn read_options(render: &RenderOptions, knowledge: &Arc<Knowledge>) -> ward_plan::ReadOptions {
    let created = (!render.shows_created()).then(|| {
        let knowledge = Arc::clone(knowledge);
        ward_plan::CreatedLeaves::when(move |type_name| knowledge.create_may_cost(type_name))
    });
    ward_plan::ReadOptions {
        content: false,
        objects: false,
        removed: render.shows_removed(),
        created,
        pipelined: true,
    }
}

/// Reads the plan at `arg` (`-`: standard input) as `options` says, handing each change to `f`
/// as it is read.
fn read(
    arg: &str,
    options: ward_plan::ReadOptions,
    f: &mut dyn FnMut(ward_model::ResourceChange),
) -> Result<ward_model::Plan, ward_plan::PlanError> {
    ward_plan::read_with(arg, options, Some(f)).map(|(plan, _)| plan)
}

fn notes(notes: &[String]) {
    for note in notes {
        eprintln!("note: {note}");
    }
}

/// `--format json`: the report is written while the plan is read. When the plan cannot be read
/// part-way, the report file (`--output`) is not written; on standard output what was already
/// written stays (a document cut off, not valid JSON), beyond the part still buffered.
fn json(
    args: &Args,
    reading: ward_plan::ReadOptions,
    knowledge: &ward_rules::Knowledge,
    classify: &ward_classify::Options,
    gate: &GateOptions,
) -> Result<(ward_classify::Assessment, ward_report::Outcome), CliError> {
    let mut unreadable = None;
    let mut done = None;
    let written = output::stream(args.output.as_deref(), |w| {
        let mut stream = ward_report::json::Stream::start(knowledge, w);
        let assessed = ward_classify::pipeline::assess_read(
            |f| read(&args.plan, reading, f),
            knowledge,
            classify,
            gate,
            |v| stream.keep_or_count(v),
        );
        let a = match assessed {
            Ok(a) => a,
            Err(e) => {
                unreadable = Some(e);
                return Err(std::io::Error::other("the plan could not be read"));
            }
        };
        notes(&a.notes);
        let r = stream
            .finish(&a.assessment, &a.outcome, &a.order)
            .map(|_| ());
        done = Some((a.assessment, a.outcome));
        r
    });
    if let Some(e) = unreadable {
        return Err(e.into());
    }
    written?;
    done.ok_or_else(|| CliError::new("the report was not written"))
}
