/// What each exit status means for each command, for its man page's EXIT STATUS section, but
/// those that say their own (`DocumentedExitStatuses`: a kind's commands, in its folder). The numbers are `ExitStatus`'s;
/// `ManualAndCompletionTests` checks every command has its entry.
enum ManualExitStatuses {
    /// The statuses of the command named `name` (its path below installtop, `hooks install`), in
    /// order; `nil` for a command this table does not know.
    static func of(_ name: String) -> [(status: Int32, meaning: String)]? {
        let usage = (ExitStatus.invalidUsage.rawValue, "invalid usage (an unknown option, a missing argument)")
        let engine = [
            (ExitStatus.succeeded.rawValue, "done"),
            (ExitStatus.failed.rawValue, "the engine refused (no such job, a job already completed) or does not admit you, or no engine answered"),
            usage,
        ]
        switch name {
        case "run", "demo":
            return [
                (ExitStatus.succeeded.rawValue, "every update succeeded, or there was nothing to do"),
                (ExitStatus.failed.rawValue, "some update failed or succeeded with errors"
                    + (name == "demo" ? ", or the demo's files could not be written" : "")),
                (ExitStatus.invalidUsage.rawValue, "invalid usage or manifest"),
                (ExitStatus.aborted.rawValue, "aborted by the operator or a signal"),
                (ExitStatus.rebootRequired.rawValue, "every update succeeded and a reboot is required"),
                (ExitStatus.leftBroken.rawValue, "dpkg was left broken (an apt job's repair after a forced abort did not succeed)"),
            ]
        case "ansible":
            return [
                (ExitStatus.succeeded.rawValue, "every task succeeded, was skipped, or failed and was rescued, ignored or cleared (meta: clear_host_errors)"),
                (ExitStatus.failed.rawValue, "a host failed or was unreachable"),
                (ExitStatus.invalidUsage.rawValue, "Ansible refused the playbook (not found, a syntax error, no host matched), or invalid usage"),
                (ExitStatus.aborted.rawValue, "aborted by the operator or a signal"),
                (ExitStatus.rebootRequired.rawValue, "done, and a host asked for a reboot"),
            ]
        case "validate":
            return [(ExitStatus.succeeded.rawValue, "the manifest is valid"), (ExitStatus.invalidUsage.rawValue, "it is not (each error is printed), or invalid usage")]
        case "history":
            return [(ExitStatus.succeeded.rawValue, "printed"), (ExitStatus.failed.rawValue, "the history cannot be read"), usage]
        case "replay":
            return [
                (ExitStatus.succeeded.rawValue, "played to the end, or stopped by a signal (Ctrl-C)"),
                (ExitStatus.failed.rawValue, "no such run, a run that is not a shell, or a recording that cannot be read (its file and line named)"),
                usage,
            ]
        case "themes":
            return [(ExitStatus.succeeded.rawValue, "listed (themes that cannot be used are named on stderr and change nothing)"), usage]
        case "serve":
            return [
                (ExitStatus.succeeded.rawValue, "stopped in order (SIGTERM or SIGINT), or --systemd-unit printed"),
                (ExitStatus.failed.rawValue, "the socket could not be bound (another engine holds it) or the history could not be opened"),
                (ExitStatus.invalidUsage.rawValue, "invalid usage, or no socket given where there is no default one"),
            ]
        case "submit":
            return [
                (ExitStatus.succeeded.rawValue, "queued"),
                (ExitStatus.failed.rawValue, "the engine refused the jobs or could not be reached"),
                (ExitStatus.invalidUsage.rawValue, "invalid usage or manifest"),
            ]
        case "status":
            return [
                (ExitStatus.succeeded.rawValue, "printed; with --host or --hosts, every host answered"),
                (ExitStatus.failed.rawValue, "no engine answered, or the engine does not admit you; with --host or --hosts, some host was unreachable (its section says why)"),
                (ExitStatus.invalidUsage.rawValue, "invalid usage (an inventory that cannot be read, a --limit that matches no host)"),
            ]
        case "abort", "cleanup":
            return engine
        case "confirm":
            return engine.map { status, text in
                status == ExitStatus.failed.rawValue
                    ? (status, text + "; with --run: not armed, too late (the deadline passed), or settled already")
                    : (status, text)
            }
        case "bridge":
            return [
                (ExitStatus.succeeded.rawValue, "the link ended: the engine closed it, or nobody reads stdout any more"),
                (ExitStatus.failed.rawValue, "no engine, an engine that does not admit you, or a read or write failed"),
                usage,
            ]
        case "attach":
            return [
                (ExitStatus.succeeded.rawValue, "detached"),
                (ExitStatus.failed.rawValue, "no engine, an engine that does not admit you, or the engine went away"),
                (ExitStatus.invalidUsage.rawValue, "invalid usage (a bad --theme, no terminal)"),
            ]
        case "drive":
            return [
                (ExitStatus.succeeded.rawValue, "every update the driver declared succeeded, or it declared nothing to do"),
                (ExitStatus.failed.rawValue, "some update failed, or the driver could not start, declared nothing it could keep, or spoke another protocol"),
                (ExitStatus.invalidUsage.rawValue, "invalid usage (no program named)"),
                (ExitStatus.aborted.rawValue, "aborted by the operator or a signal"),
                (ExitStatus.rebootRequired.rawValue, "done, and an update asked for a reboot"),
            ]
        case "hooks":
            return [usage]
        case "hooks install":
            return [
                (ExitStatus.succeeded.rawValue, "the hook files are written"), (ExitStatus.failed.rawValue, "a hook file could not be written"),
                (ExitStatus.invalidUsage.rawValue, "invalid usage, or not root where the hooks go into folders only root may write"),
            ]
        case "hooks status":
            return [(ExitStatus.succeeded.rawValue, "the hooks are installed"), (ExitStatus.failed.rawValue, "they are not (or only some are)"), usage]
        case "hooks remove":
            return [(ExitStatus.succeeded.rawValue, "every file installtop wrote is gone (or none was there)"), (ExitStatus.failed.rawValue, "a file could not be removed"), usage]
        case "watch":
            return [
                (ExitStatus.succeeded.rawValue, "quit"),
                (ExitStatus.failed.rawValue, "the engine went away or does not admit you, or no engine could listen on the socket"),
                (ExitStatus.invalidUsage.rawValue, "invalid usage (a bad --theme, no terminal), or no engine to watch and no socket of your own to run one on"),
            ]
        case "restarts":
            return [
                (ExitStatus.succeeded.rawValue, "nothing needs a restart or a reboot"),
                (ExitStatus.failed.rawValue, "something does: a service or process runs deleted or replaced code, or a reboot is required (also when some processes could not be read; the text says the answer is incomplete)"),
                usage,
                (ExitStatus.incomplete.rawValue, "incomplete: nothing it could read needs a restart or reboot, but it could not read some processes (another user's, when not root); run as root for a complete answer"),
            ]
        case "pending":
            return [
                (ExitStatus.succeeded.rawValue, "printed; with --host or --hosts, every host answered with a snapshot"),
                (ExitStatus.failed.rawValue, "the snapshot could not be computed (its problem is printed), or no engine could run --refresh; with --host or --hosts, some host was unreachable or could not compute"),
                usage,
            ]
        case "restart-services":
            return [
                (ExitStatus.succeeded.rawValue, "every service named was restarted, or there was none to restart"),
                (ExitStatus.failed.rawValue, "a restart failed or left its service not running, or nothing was confirmed (off a terminal without --yes, or not answered y)"),
                usage,
                (ExitStatus.aborted.rawValue, "aborted by the operator or a signal"),
            ]
        default:
            return nil
        }
    }
}
