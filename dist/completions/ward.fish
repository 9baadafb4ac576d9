# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ward_global_optspecs
    string join \n h/help V/version
end

function __fish_ward_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ward_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ward_using_subcommand
    set -l cmd (__fish_ward_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ward -n "__fish_ward_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_needs_command" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_needs_command" -f -a "plan" -d 'Classify every change in a plan by what it costs (terminal, JSON or Markdown report)'
complete -c ward -n "__fish_ward_needs_command" -f -a "rules" -d 'Show ward\'s knowledge: packs, versions, classified types and their rules'
complete -c ward -n "__fish_ward_needs_command" -f -a "gate" -d 'Refuse a plan until every dangerous change is approved, within budget, and guards pass'
complete -c ward -n "__fish_ward_needs_command" -f -a "approve" -d 'Approve one change of a plan, bound to a digest of exactly that change'
complete -c ward -n "__fish_ward_needs_command" -f -a "verify" -d 'Confirm a saved binary plan is the plan that passed `ward gate`'
complete -c ward -n "__fish_ward_needs_command" -f -a "drift" -d 'Check every root for drift; a missing or replaced state fails; history kept'
complete -c ward -n "__fish_ward_needs_command" -f -a "stack" -d 'Apply layered roots forward, tear them down in reverse, one approved destroy at a time'
complete -c ward -n "__fish_ward_needs_command" -f -a "check" -d 'Run the repository gates: module sources, versions, state, layers, key material, Ansible'
complete -c ward -n "__fish_ward_needs_command" -f -a "import" -d 'Adopt live objects into Terraform: import blocks, a zero-diff check, a recorded acceptance'
complete -c ward -n "__fish_ward_needs_command" -f -a "docs" -d 'Print a document built into ward (rules, config, gate, exit-codes...); no topic: list them'
complete -c ward -n "__fish_ward_needs_command" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish), generated from ward\'s arguments'
complete -c ward -n "__fish_ward_needs_command" -f -a "man" -d 'Print the man page ward(1), generated from ward\'s arguments'
complete -c ward -n "__fish_ward_needs_command" -f -a "serve" -d 'Serve a read-only dashboard of the history (127.0.0.1; JSON API under /api/v1)'
complete -c ward -n "__fish_ward_needs_command" -f -a "report" -d 'Write the history dashboard as one static HTML file (`--html FILE`)'
complete -c ward -n "__fish_ward_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand plan" -l format -d 'Report format' -r -f -a "terminal\t'For people: grouped by class, worst first'
json\t'For machines: schema version 2 (`ward docs json-schema`)'
markdown\t'For pull-request comments, within --markdown-limit'"
complete -c ward -n "__fish_ward_using_subcommand plan" -l fail-on -d 'Fail (exit 1) when any change is of this class or worse. Default: `plan { fail_on }` in ward.hcl, else no threshold' -r -f -a "none\t'nothing running is touched'
free\t'metadata only (tags, labels, descriptions); nothing running notices'
in-place\t'changed in place without stopping anything'
interrupt\t'changed in place, but stopped, restarted or failed over: service is interrupted'
replace\t'destroyed (and perhaps recreated) with a new identity; no data lost'
data-loss\t'an object holding data is destroyed or replaced: its data is lost'"
complete -c ward -n "__fish_ward_using_subcommand plan" -l config -d 'Rule file to use instead of the ward.hcl found at the repository root' -r -F
complete -c ward -n "__fish_ward_using_subcommand plan" -l color -d 'Colour the terminal report: auto = only on a terminal and when NO_COLOR is not set' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand plan" -l markdown-limit -d 'The most characters the Markdown report may have; longer reports are summarised and say how many entries they left out' -r
complete -c ward -n "__fish_ward_using_subcommand plan" -l expand -d 'List the changes of these low classes with their attributes in the terminal and Markdown reports (Markdown: each in a collapsed block): `free` shows what each free change sets or changes, `none` lists the no-ops and reads. Comma-separated. Default: `plan { expand }` in ward.hcl, else neither. The JSON report always carries every change\'s attributes' -r -f -a "free\t'Each free change with its attributes (a create\'s: what it sets)'
none\t'Each none change (no-op, read, forget), not only their count'"
complete -c ward -n "__fish_ward_using_subcommand plan" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand plan" -l allow-unclassified -d 'Report unclassified resource types without failing the coverage gate (exit 3). Their changes still count as reaching any --fail-on threshold: their cost is unknown'
complete -c ward -n "__fish_ward_using_subcommand plan" -l allow-errored -d 'Report an errored plan (planning failed part-way) without exiting 2 for that alone'
complete -c ward -n "__fish_ward_using_subcommand plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand plan" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand rules; and not __fish_seen_subcommand_from list show help" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand rules; and not __fish_seen_subcommand_from list show help" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand rules; and not __fish_seen_subcommand_from list show help" -f -a "list" -d 'List the packs (name, version, provider) and every classified resource type'
complete -c ward -n "__fish_ward_using_subcommand rules; and not __fish_seen_subcommand_from list show help" -f -a "show" -d 'Show every rule about one resource type, in precedence order'
complete -c ward -n "__fish_ward_using_subcommand rules; and not __fish_seen_subcommand_from list show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from list" -l format -d 'Output format' -r -f -a "terminal\t'For people'
json\t'For machines (`schema_version` 1)'"
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from list" -l config -d 'Rule file to use instead of the ward.hcl found at the repository root' -r -F
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from list" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from list" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from show" -l format -d 'Output format' -r -f -a "terminal\t'For people'
json\t'For machines (`schema_version` 1)'"
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from show" -l config -d 'Rule file to use instead of the ward.hcl found at the repository root' -r -F
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from show" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from show" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the packs (name, version, provider) and every classified resource type'
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show every rule about one resource type, in precedence order'
complete -c ward -n "__fish_ward_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand gate" -l config -d 'Rule and policy file to use instead of the ward.hcl found at the repository root' -r -F
complete -c ward -n "__fish_ward_using_subcommand gate" -l approvals -d 'Approvals file (default: policy.approvals, or .ward/approvals.json beside ward.hcl)' -r -F
complete -c ward -n "__fish_ward_using_subcommand gate" -l root -d 'The Terraform root that was planned, read for `prevent_destroy` (default: the current directory when it holds .tf files)' -r -F
complete -c ward -n "__fish_ward_using_subcommand gate" -l db -d 'The history (a SQLite file or a postgres:// URL): where `ward import` records adoptions and, when given here or as `history { url }` in ward.hcl, where approvals and the gate\'s decisions are recorded (default: as `ward drift`, read only)' -r -F
complete -c ward -n "__fish_ward_using_subcommand gate" -l format -d 'Report format' -r -f -a "terminal\t'For a terminal (`text` is still accepted, as a hidden alias)'
json\t'The gate report as JSON'
markdown\t'A pull-request comment telling a reviewer what to approve'"
complete -c ward -n "__fish_ward_using_subcommand gate" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand gate" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand gate" -l record -d 'Write the gate record (for `ward verify`) to this file' -r -F
complete -c ward -n "__fish_ward_using_subcommand gate" -l approvals-from -d 'Take the approvals from a pull request\'s reviews instead of the approvals file: github:OWNER/REPO#NUMBER (token from GITHUB_TOKEN) or gitlab:GROUP/PROJECT!IID (token from GITLAB_TOKEN). See `ward docs gate`, "Review approvals"' -r
complete -c ward -n "__fish_ward_using_subcommand gate" -l forge-url -d 'The forge\'s API base for --approvals-from (default: GITHUB_API_URL or CI_API_V4_URL, else the forge\'s public one)' -r
complete -c ward -n "__fish_ward_using_subcommand gate" -l allow-unclassified -d 'Do not fail on unclassified resource types (their destroys still need approval)'
complete -c ward -n "__fish_ward_using_subcommand gate" -l no-record-protection -d 'Do not add newly found `prevent_destroy` addresses to the protection record'
complete -c ward -n "__fish_ward_using_subcommand gate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand gate" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand approve" -l config -d 'Rule and policy file to use instead of the ward.hcl found at the repository root' -r -F
complete -c ward -n "__fish_ward_using_subcommand approve" -l approvals -d 'Approvals file (default: policy.approvals, or .ward/approvals.json beside ward.hcl)' -r -F
complete -c ward -n "__fish_ward_using_subcommand approve" -l root -d 'The Terraform root that was planned, read for `prevent_destroy` (default: the current directory when it holds .tf files)' -r -F
complete -c ward -n "__fish_ward_using_subcommand approve" -l db -d 'The history (a SQLite file or a postgres:// URL): where `ward import` records adoptions and, when given here or as `history { url }` in ward.hcl, where approvals and the gate\'s decisions are recorded (default: as `ward drift`, read only)' -r -F
complete -c ward -n "__fish_ward_using_subcommand approve" -l address -d 'The change\'s address (a `*` pattern only for changes that do not lose data)' -r
complete -c ward -n "__fish_ward_using_subcommand approve" -l reason -d 'Why the change is safe to apply (recorded with the approval)' -r
complete -c ward -n "__fish_ward_using_subcommand approve" -l expires -d 'How long the approval lasts: 90s, 30m, 24h, 7d, 2w, 1d12h. Default: policy.approval_expiry in ward.hcl (7d unless set; "never" for no expiry)' -r
complete -c ward -n "__fish_ward_using_subcommand approve" -l by -d 'Who approves (default: WARD_APPROVER, USER or LOGNAME)' -r
complete -c ward -n "__fish_ward_using_subcommand approve" -l deposed -d 'The deposed key, to approve a change to a deposed object' -r
complete -c ward -n "__fish_ward_using_subcommand approve" -l allow-unclassified -d 'Do not fail on unclassified resource types (their destroys still need approval)'
complete -c ward -n "__fish_ward_using_subcommand approve" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand approve" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand verify" -l record -d 'The gate record written by `ward gate --record FILE`' -r -F
complete -c ward -n "__fish_ward_using_subcommand verify" -l binary -d 'The terraform or tofu binary that wrote the plan (default from the record\'s product)' -r
complete -c ward -n "__fish_ward_using_subcommand verify" -l chdir -d 'The root directory the plan was made in (default: the current directory)' -r -F
complete -c ward -n "__fish_ward_using_subcommand verify" -l timeout -d 'Seconds `show -json` may take; then its process group is killed and verify fails (exit 2)' -r
complete -c ward -n "__fish_ward_using_subcommand verify" -l approvals-from -d 'The pull request the gate took its approvals from (github:OWNER/REPO#N, gitlab:GROUP/PROJECT!IID): the record must hold review approvals of it, and they are read again. Without it, a record that holds review approvals is re-checked against its own' -r
complete -c ward -n "__fish_ward_using_subcommand verify" -l forge-url -d 'The forge\'s API base for the re-check (default: GITHUB_API_URL / CI_API_V4_URL, else the forge\'s public one); it must be the one the gate read' -r
complete -c ward -n "__fish_ward_using_subcommand verify" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal (`text` is still accepted, as a hidden alias)'
json\t'JSON'"
complete -c ward -n "__fish_ward_using_subcommand verify" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand verify" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand verify" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l config -d 'ward.hcl to read (default: the first ward.hcl walking up from REPO to the repository root, the first directory with .git)' -r -F
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l terraform -d 'A terraform binary to consider (besides `terraform` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l tofu -d 'A tofu binary to consider (besides `tofu` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -s j -l jobs -d 'Roots checked at once' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l timeout -d 'Seconds one root may take (init, state pull, plans); then its process group is killed' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l allow-env -d 'Let this inherited TF_* variable (or PREFIX* pattern) reach Terraform; repeatable. TF_VAR_*, TF_TOKEN_*, TF_PLUGIN_CACHE_DIR and TF_CLI_CONFIG_FILE always do; every other TF_* variable (TF_CLI_ARGS*, TF_WORKSPACE, TF_LOG...) is removed' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l shard -d 'Check only shard K of N (1-based, stable by root path), e.g. --shard 2/8' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l db -d 'The history database: a SQLite file or a postgres:// URL without a password (default: `history { url }` in ward.hcl, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l notify -d 'POST the transitions (new, escalated, resolved) as JSON to this webhook; an alert it does not take is kept and sent first by the next run' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l notify-format -d 'The webhook body\'s shape: ward (ward\'s JSON, docs/drift.md), slack (a Slack incoming webhook\'s message), teams (a Microsoft Teams Workflows webhook\'s Adaptive Card)' -r -f -a "ward\t'ward\'s own JSON body'
slack\t'A Slack incoming webhook\'s message'
teams\t'A Microsoft Teams (Workflows) webhook\'s Adaptive Card'"
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l accept-state -d 'Trust this root\'s current state lineage/serial (after a deliberate state migration)' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal (`text` is still accepted, as a hidden alias)'
json\t'JSON (schema_version 1)'
markdown\t'Markdown'
junit\t'JUnit XML, one test case per root'"
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l pending -d 'Also run a normal plan to report code changes not yet applied (pending-change)'
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l timestamps -d 'Add the start time and per-root durations to the report'
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -l no-progress -d 'No progress lines on standard error (default: shown when it is a terminal)'
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -a "history" -d 'Show the history: runs, a root\'s outcomes, findings first/last seen and resolved'
complete -c ward -n "__fish_ward_using_subcommand drift; and not __fish_seen_subcommand_from history help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -l db -d 'The history database: a SQLite file or a postgres:// URL without a password (default: `history { url }` in ward.hcl, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -l limit -d 'How many runs to show (the newest)' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -l since -d 'Only runs started at or after this (`YYYY-MM-DD`, or an RFC 3339 time in UTC)' -r
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal (`text` is still accepted, as a hidden alias)'
json\t'JSON (schema_version 1)'"
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -l all -d 'Every finding and every unfinished run ever recorded, not only those of the runs shown (a year of a large fleet\'s findings is a long list)'
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from help" -f -a "history" -d 'Show the history: runs, a root\'s outcomes, findings first/last seen and resolved'
complete -c ward -n "__fish_ward_using_subcommand drift; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -f -a "plan" -d 'Plan every root in layer order; a root whose upstream has changes is blocked-by-upstream'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -f -a "apply" -d 'Per root, upwards: plan, gate, apply that plan, record outputs and state, plan again'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -f -a "teardown" -d 'Per root, downwards: verified backup, pre_destroy, destroy plan with every destroy approved on its own, apply, empty-state proof'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -f -a "resume" -d 'Continue the last run that stopped; what it finished is checked again first'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -f -a "status" -d 'The last run: each root\'s outcome, its backup and its outputs\' hash'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -f -a "approve" -d 'Approve one change of the plan a root waits on (or, with --all, each destroy of its teardown), bound to its digest and upstream outputs'
complete -c ward -n "__fish_ward_using_subcommand stack; and not __fish_seen_subcommand_from plan apply teardown resume status approve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -l config -d 'ward.hcl to read (default: the first ward.hcl walking up from the current directory to the repository root). Roots\' paths are relative to its directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -l terraform -d 'A terraform binary to consider (besides `terraform` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -l tofu -d 'A tofu binary to consider (besides `tofu` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -l db -d 'The history: a SQLite file or a postgres:// URL (default: stack.history in ward.hcl, else history.url, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1, docs/stack.schema.json)'
markdown\t'Markdown'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -l site -d 'Only this site\'s instances (and roots without sites, which serve every site)' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -l config -d 'ward.hcl to read (default: the first ward.hcl walking up from the current directory to the repository root). Roots\' paths are relative to its directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -l terraform -d 'A terraform binary to consider (besides `terraform` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -l tofu -d 'A tofu binary to consider (besides `tofu` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -l db -d 'The history: a SQLite file or a postgres:// URL (default: stack.history in ward.hcl, else history.url, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1, docs/stack.schema.json)'
markdown\t'Markdown'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -l site -d 'Only this site\'s instances (and roots without sites, which serve every site)' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from apply" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l config -d 'ward.hcl to read (default: the first ward.hcl walking up from the current directory to the repository root). Roots\' paths are relative to its directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l terraform -d 'A terraform binary to consider (besides `terraform` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l tofu -d 'A tofu binary to consider (besides `tofu` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l db -d 'The history: a SQLite file or a postgres:// URL (default: stack.history in ward.hcl, else history.url, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1, docs/stack.schema.json)'
markdown\t'Markdown'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l site -d 'Only this site\'s instances (and roots without sites, which serve every site)' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -l root -d 'Only this root (refused while a root that reads it holds resources)' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from teardown" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -l config -d 'ward.hcl to read (default: the first ward.hcl walking up from the current directory to the repository root). Roots\' paths are relative to its directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -l terraform -d 'A terraform binary to consider (besides `terraform` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -l tofu -d 'A tofu binary to consider (besides `tofu` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -l db -d 'The history: a SQLite file or a postgres:// URL (default: stack.history in ward.hcl, else history.url, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1, docs/stack.schema.json)'
markdown\t'Markdown'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from resume" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -l config -d 'ward.hcl to read (default: the first ward.hcl walking up from the current directory to the repository root). Roots\' paths are relative to its directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -l terraform -d 'A terraform binary to consider (besides `terraform` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -l tofu -d 'A tofu binary to consider (besides `tofu` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -l db -d 'The history: a SQLite file or a postgres:// URL (default: stack.history in ward.hcl, else history.url, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1, docs/stack.schema.json)'
markdown\t'Markdown'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l config -d 'ward.hcl to read (default: the first ward.hcl walking up from the current directory to the repository root). Roots\' paths are relative to its directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l terraform -d 'A terraform binary to consider (besides `terraform` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l tofu -d 'A tofu binary to consider (besides `tofu` on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l db -d 'The history: a SQLite file or a postgres:// URL (default: stack.history in ward.hcl, else history.url, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1, docs/stack.schema.json)'
markdown\t'Markdown'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l root -d 'The root' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l site -d 'The site (needed when the root has several)' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l address -d 'The exact resource address' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l reason -d 'Why this change is safe (recorded with the approval)' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l expires -d 'How long the approval lasts (`24h`, `7d`); default: the policy\'s approval_expiry' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l by -d 'Who approves (default: WARD_APPROVER, else USER, else LOGNAME; containers and CI jobs often set none of them: then pass --by or set WARD_APPROVER)' -r
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -l all -d 'Every destroy the instance\'s teardown waits on: listed with its digest, then each approved on its own (its own approval and history record)'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from approve" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Plan every root in layer order; a root whose upstream has changes is blocked-by-upstream'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from help" -f -a "apply" -d 'Per root, upwards: plan, gate, apply that plan, record outputs and state, plan again'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from help" -f -a "teardown" -d 'Per root, downwards: verified backup, pre_destroy, destroy plan with every destroy approved on its own, apply, empty-state proof'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from help" -f -a "resume" -d 'Continue the last run that stopped; what it finished is checked again first'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from help" -f -a "status" -d 'The last run: each root\'s outcome, its backup and its outputs\' hash'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from help" -f -a "approve" -d 'Approve one change of the plan a root waits on (or, with --all, each destroy of its teardown), bound to its digest and upstream outputs'
complete -c ward -n "__fish_ward_using_subcommand stack; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand check" -l config -d 'The ward configuration (default: the first ward.hcl walking up from DIR to the repository root, the first directory with .git)' -r -F
complete -c ward -n "__fish_ward_using_subcommand check" -l format -d 'Output format' -r -f -a "terminal\t'Human-readable text'
json\t'The full report as JSON'
sarif\t'SARIF 2.1.0, for code scanning'
junit\t'JUnit XML, for CI test reports'"
complete -c ward -n "__fish_ward_using_subcommand check" -s o -l output -d 'Write the report to this file instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand check" -l fail-on -d 'The lowest severity that fails the run (default: ward.hcl\'s check.fail_on, else error)' -r -f -a "error\t'Fail on errors only (default)'
warning\t'Fail on warnings and errors'
info\t'Fail on any finding'"
complete -c ward -n "__fish_ward_using_subcommand check" -l cache-dir -d 'Cache directory for --resolve (default: $XDG_CACHE_HOME/ward/ls-remote)' -r -F
complete -c ward -n "__fish_ward_using_subcommand check" -l resolve-timeout -d 'Seconds one `git ls-remote` of --resolve may take; then it is killed and the ref is reported as unresolved' -r
complete -c ward -n "__fish_ward_using_subcommand check" -l binary -d 'The binary for --exec: terraform, tofu, or a path' -r -F
complete -c ward -n "__fish_ward_using_subcommand check" -l exec-timeout -d 'Seconds one --exec command (fmt, init, validate) may take; then its process group is killed, the timeout is reported and no further command is run' -r
complete -c ward -n "__fish_ward_using_subcommand check" -l allow-env -d 'Let this inherited TF_* variable (or PREFIX* pattern) reach --exec\'s commands; repeatable. TF_VAR_*, TF_TOKEN_*, TF_PLUGIN_CACHE_DIR and TF_CLI_CONFIG_FILE always do' -r
complete -c ward -n "__fish_ward_using_subcommand check" -l today -d 'Today\'s date (UTC, YYYY-MM-DD) for suppression expiry; for reproducible runs' -r
complete -c ward -n "__fish_ward_using_subcommand check" -l exclude -d 'Do not read this repository-relative path (a directory covers everything below it; `*` matches any run of characters); repeatable. Adds to ward.hcl\'s `check { exclude }`' -r
complete -c ward -n "__fish_ward_using_subcommand check" -l changed -d 'Report only findings about the directories of these files (the whole repository is still checked): what a pre-commit hook passes. Takes every following argument' -r -F
complete -c ward -n "__fish_ward_using_subcommand check" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand check" -l resolve -d 'Check every git ref that is not a commit id against its remote (git ls-remote, cached)'
complete -c ward -n "__fish_ward_using_subcommand check" -l exec -d 'Also run `fmt -check` and `init -backend=false` + `validate` on every module (in a copy)'
complete -c ward -n "__fish_ward_using_subcommand check" -s v -l verbose -d 'Terminal output also lists every directory and the module source matrix'
complete -c ward -n "__fish_ward_using_subcommand check" -l list-rules -d 'Print the rule catalog and exit'
complete -c ward -n "__fish_ward_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand check" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand import; and not __fish_seen_subcommand_from plan check accept help" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand import; and not __fish_seen_subcommand_from plan check accept help" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand import; and not __fish_seen_subcommand_from plan check accept help" -f -a "plan" -d 'Write the imports for an inventory: import blocks, or `terraform import` commands'
complete -c ward -n "__fish_ward_using_subcommand import; and not __fish_seen_subcommand_from plan check accept help" -f -a "check" -d 'Pass a plan only when it imports exactly the inventory and changes nothing'
complete -c ward -n "__fish_ward_using_subcommand import; and not __fish_seen_subcommand_from plan check accept help" -f -a "accept" -d 'Apply the checked plan, require empty plans after it, and record the acceptance'
complete -c ward -n "__fish_ward_using_subcommand import; and not __fish_seen_subcommand_from plan check accept help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -l inventory -d 'The inventory (JSON: address -> import id, optional attributes)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -s o -l output -d 'Write the import blocks (or the commands) to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -l scratch -d 'Also write a normalised scratch configuration from the inventory\'s attributes' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -l terraform -d 'Terraform executable to use (default: chosen by evidence among those on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -l tofu -d 'OpenTofu executable to use' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -l config -d '`ward.hcl` to use instead of the one found from the current directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -l db -d 'The history (a SQLite file or a postgres:// URL), where the adoption is recorded and `ward gate` reads it (default: `history { url }` in ward.hcl, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -l readopt -d 'Adopt more objects into a root that was already accepted: puts it back into adoption, where `ward gate` refuses every change but imports until the next `ward import accept`'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l inventory -d 'The inventory the plan must import exactly' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l state -d 'Another root\'s state (`terraform state pull` output) as NAME=FILE: none of its ids may be adopted here. Repeatable' -r
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l root -d 'The root being adopted (skipped by --other-roots; default: the current directory)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l timeout -d 'Seconds each `state pull` may take (--other-roots)' -r
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l record -d 'Write the check record `ward import accept` requires to FILE (the JSON report)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1)'
markdown\t'Markdown, for a pull-request comment'"
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l terraform -d 'Terraform executable to use (default: chosen by evidence among those on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l tofu -d 'OpenTofu executable to use' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l config -d '`ward.hcl` to use instead of the one found from the current directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -l other-roots -d 'Also pull the state (`state pull`) of every root ward.hcl declares, except the root being adopted: none of their ids may be adopted here. Needs Terraform and initialised roots'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l plan -d 'The saved plan (`terraform plan -out FILE`) that passed `ward import check`' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l record -d 'The check record written by `ward import check --record`' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l timeout -d 'Seconds each Terraform command may take' -r
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l allow-env -d 'Keep this inherited TF_* variable (name or PREFIX*) for Terraform. Repeatable' -r
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l format -d 'Output format' -r -f -a "terminal\t'For a terminal'
json\t'JSON (schema_version 1)'
markdown\t'Markdown, for a pull-request comment'"
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -s o -l output -d 'Write the report to FILE instead of standard output' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l color -d 'Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t'Colour when writing to a terminal and `NO_COLOR` is not set'
always\t'Always colour (even into a file or a pipe)'
never\t'Never colour'"
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l terraform -d 'Terraform executable to use (default: chosen by evidence among those on PATH)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l tofu -d 'OpenTofu executable to use' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l config -d '`ward.hcl` to use instead of the one found from the current directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -l db -d 'The history (a SQLite file or a postgres:// URL), where the adoption is recorded and `ward gate` reads it (default: `history { url }` in ward.hcl, else $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite)' -r -F
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from accept" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Write the imports for an inventory: import blocks, or `terraform import` commands'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from help" -f -a "check" -d 'Pass a plan only when it imports exactly the inventory and changes nothing'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from help" -f -a "accept" -d 'Apply the checked plan, require empty plans after it, and record the acceptance'
complete -c ward -n "__fish_ward_using_subcommand import; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand docs" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand docs" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ward -n "__fish_ward_using_subcommand completions" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand man" -l dir -d 'Write every page (ward.1 and one per subcommand) into this directory instead of printing ward(1): e.g. `ward man --dir /usr/local/share/man/man1`' -r -F
complete -c ward -n "__fish_ward_using_subcommand man" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand man" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand serve" -l db -d 'The history database: a SQLite file or a postgres:// URL without a password (default: `history { url }` in ward.hcl, else the default drift history file)' -r -F
complete -c ward -n "__fish_ward_using_subcommand serve" -l config -d 'ward.hcl to read (layers, `history`); default: the one found from the current directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand serve" -l listen -d 'Address and port to listen on' -r
complete -c ward -n "__fish_ward_using_subcommand serve" -l token-file -d 'A file whose first line is the token (instead of WARD_SERVE_TOKEN); readable by its owner only' -r -F
complete -c ward -n "__fish_ward_using_subcommand serve" -l host -d 'Another host name requests may give (the name behind your proxy or in your DNS); repeatable' -r
complete -c ward -n "__fish_ward_using_subcommand serve" -l stale-after -d 'Mark a root stale when its newest run is older than this (`36h`, `2d`, `1w`; default: `history { stale_after }` in ward.hcl, else 2d)' -r
complete -c ward -n "__fish_ward_using_subcommand serve" -l allow-remote -d 'Allow an address that is not loopback (a token is then required)'
complete -c ward -n "__fish_ward_using_subcommand serve" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand serve" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand report" -l html -d 'The file to write (atomically)' -r -F
complete -c ward -n "__fish_ward_using_subcommand report" -l db -d 'The history database: a SQLite file or a postgres:// URL without a password (default: `history { url }` in ward.hcl, else the default drift history file)' -r -F
complete -c ward -n "__fish_ward_using_subcommand report" -l config -d 'ward.hcl to read (layers, `history`); default: the one found from the current directory' -r -F
complete -c ward -n "__fish_ward_using_subcommand report" -l runs -d 'How many of each root\'s newest runs its timeline shows' -r
complete -c ward -n "__fish_ward_using_subcommand report" -l roots -d 'At most this many roots listed, worst first, each with its timeline (0: no limit)' -r
complete -c ward -n "__fish_ward_using_subcommand report" -l recent-runs -d 'How many of the newest runs the recent-runs table lists' -r
complete -c ward -n "__fish_ward_using_subcommand report" -l stale-after -d 'Mark a root stale when its newest run is older than this (`36h`, `2d`, `1w`; default: `history { stale_after }` in ward.hcl, else 2d)' -r
complete -c ward -n "__fish_ward_using_subcommand report" -l all-roots -d 'List every root (and its timeline), not only the roots that need attention'
complete -c ward -n "__fish_ward_using_subcommand report" -s h -l help -d 'Print help'
complete -c ward -n "__fish_ward_using_subcommand report" -s V -l version -d 'Print version'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "plan" -d 'Classify every change in a plan by what it costs (terminal, JSON or Markdown report)'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "rules" -d 'Show ward\'s knowledge: packs, versions, classified types and their rules'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "gate" -d 'Refuse a plan until every dangerous change is approved, within budget, and guards pass'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "approve" -d 'Approve one change of a plan, bound to a digest of exactly that change'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "verify" -d 'Confirm a saved binary plan is the plan that passed `ward gate`'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "drift" -d 'Check every root for drift; a missing or replaced state fails; history kept'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "stack" -d 'Apply layered roots forward, tear them down in reverse, one approved destroy at a time'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "check" -d 'Run the repository gates: module sources, versions, state, layers, key material, Ansible'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "import" -d 'Adopt live objects into Terraform: import blocks, a zero-diff check, a recorded acceptance'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "docs" -d 'Print a document built into ward (rules, config, gate, exit-codes...); no topic: list them'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish), generated from ward\'s arguments'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "man" -d 'Print the man page ward(1), generated from ward\'s arguments'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "serve" -d 'Serve a read-only dashboard of the history (127.0.0.1; JSON API under /api/v1)'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "report" -d 'Write the history dashboard as one static HTML file (`--html FILE`)'
complete -c ward -n "__fish_ward_using_subcommand help; and not __fish_seen_subcommand_from plan rules gate approve verify drift stack check import docs completions man serve report help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "list" -d 'List the packs (name, version, provider) and every classified resource type'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "show" -d 'Show every rule about one resource type, in precedence order'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from drift" -f -a "history" -d 'Show the history: runs, a root\'s outcomes, findings first/last seen and resolved'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from stack" -f -a "plan" -d 'Plan every root in layer order; a root whose upstream has changes is blocked-by-upstream'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from stack" -f -a "apply" -d 'Per root, upwards: plan, gate, apply that plan, record outputs and state, plan again'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from stack" -f -a "teardown" -d 'Per root, downwards: verified backup, pre_destroy, destroy plan with every destroy approved on its own, apply, empty-state proof'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from stack" -f -a "resume" -d 'Continue the last run that stopped; what it finished is checked again first'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from stack" -f -a "status" -d 'The last run: each root\'s outcome, its backup and its outputs\' hash'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from stack" -f -a "approve" -d 'Approve one change of the plan a root waits on (or, with --all, each destroy of its teardown), bound to its digest and upstream outputs'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from import" -f -a "plan" -d 'Write the imports for an inventory: import blocks, or `terraform import` commands'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from import" -f -a "check" -d 'Pass a plan only when it imports exactly the inventory and changes nothing'
complete -c ward -n "__fish_ward_using_subcommand help; and __fish_seen_subcommand_from import" -f -a "accept" -d 'Apply the checked plan, require empty plans after it, and record the acceptance'
