//! `ward approve`: record an approval bound to exactly one change. See docs/gate.md.

use crate::context::Context;
use crate::error::CliError;
use crate::gate::{finish, InputArgs};
use ward_gate::run::{self, ApproveOptions};
use ward_report::Exit;

/// Arguments of `ward approve`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Approve one change of a plan, bound to a digest of exactly that change",
    after_help = "Examples:\n  \
ward approve plan.json --address fakecloud_volume.data --reason \"backup taken, ticket 42\" --expires 24h\n  \
WARD_APPROVAL_KEY=… ward approve plan.json --address 'module.web.fakecloud_instance.app[*]' --reason \"rolling image update\"\n\n\
Changes that lose data must be approved one exact address at a time. Set WARD_APPROVAL_KEY to sign."
)]
pub struct Args {
    #[command(flatten)]
    inputs: InputArgs,
    /// The change's address (a `*` pattern only for changes that do not lose data).
    #[arg(long, value_name = "ADDR")]
    address: String,
    /// Why the change is safe to apply (recorded with the approval).
    #[arg(long, value_name = "TEXT")]
    reason: String,
    /// How long the approval lasts: 90s, 30m, 24h, 7d, 2w, 1d12h. Default: policy.approval_expiry in ward.hcl (7d unless set; "never" for no expiry).
    #[arg(long, value_name = "DURATION")]
    expires: Option<String>,
    /// Who approves (default: WARD_APPROVER, USER or LOGNAME).
    #[arg(long, value_name = "NAME")]
    by: Option<String>,
    /// The deposed key, to approve a change to a deposed object.
    #[arg(long, value_name = "KEY")]
    deposed: Option<String>,
}

/// Runs `ward approve`.
pub fn run(args: Args) -> Result<Exit, CliError> {
    let ctx = Context::load(args.inputs.config.as_deref())?;
    let (inputs, audit) = args.inputs.inputs(&ctx)?;
    let opts = ApproveOptions {
        inputs,
        audit,
        address: args.address,
        deposed: args.deposed,
        reason: args.reason,
        expires: args.expires,
        by: args.by,
        binding: Default::default(),
    };
    let done = run::approve(&opts, &ctx.gate_setup(), &crate::gate::process_env)
        .map_err(|e| CliError::new(e.to_string()))?;
    finish(
        &ward_report::gate::approve_text(&done),
        None,
        &done.notes,
        done.exit,
    )
}
