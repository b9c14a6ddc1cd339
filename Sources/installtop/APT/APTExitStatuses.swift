/// What each exit status means for the apt commands (`DocumentedExitStatuses`): one table for
/// a command that runs a request, the undo's, the repair's and the revert's worded apart.
enum APTExitStatuses {
    /// `apt`: a command that runs one request.
    static let transaction: [(status: Int32, meaning: String)] = [
        (ExitStatus.succeeded.rawValue, "every package done, or nothing to do"),
        (ExitStatus.failed.rawValue, "some package failed, or the plan was not confirmed (answered n, or off a terminal without --yes); nothing is recorded then"),
        (ExitStatus.invalidUsage.rawValue, "apt refused the request: an unknown package, broken dependencies, a locked database, no permission"),
        (ExitStatus.aborted.rawValue, "aborted by the operator or a signal"),
        (ExitStatus.rebootRequired.rawValue, "done, and a reboot is required"),
        (ExitStatus.leftBroken.rawValue, "dpkg was left broken (the repair after a forced abort did not succeed), or a graceful stop left apt's dependencies unmet; the summary names the command that repairs it"),
    ]

    /// `apt install`, `apt upgrade`, `apt full-upgrade`, `apt remove`: a transaction's, and with
    /// `--confirm` the revert's (Documentation/COMMIT-CONFIRMED.md).
    static let armable: [(status: Int32, meaning: String)] = transaction + [
        (ExitStatus.reverted.rawValue,
         "with --confirm: the run was not confirmed by its deadline, or a check regressed with --revert-on-regression, and its undo put it back"),
    ]

    /// `apt revert`.
    static let revert: [(status: Int32, meaning: String)] = [
        (ExitStatus.succeeded.rawValue, "with --due: nothing is due yet"),
        (ExitStatus.failed.rawValue, "refused (not armed, confirmed or reverted already, being reverted elsewhere), or the undo failed: the run is recorded expired"),
        (ExitStatus.invalidUsage.rawValue, "invalid usage (an unknown option, a missing argument)"),
        (ExitStatus.reverted.rawValue, "reverted: the run's undo put it back"),
    ]

    /// `apt undo`: its refusals are invalid usage too, nothing was run.
    static let undo: [(status: Int32, meaning: String)] = transaction.map { status, text in
        status == ExitStatus.invalidUsage.rawValue
            ? (status, "refused, nothing run: a run the history does not hold, one that cannot be undone (its reason), a package changed outside installtop since, or apt refused the request")
            : (status, text)
    }

    /// `apt repair`.
    static let repair: [(status: Int32, meaning: String)] = transaction.map { status, text in
        switch status {
        case ExitStatus.succeeded.rawValue: (status, "nothing was damaged, or every damaged package is repaired")
        case ExitStatus.failed.rawValue:
            (status, "a package is still damaged after the job, nothing could reinstall one (each is named), or the plan was not confirmed")
        case ExitStatus.invalidUsage.rawValue:
            (status, "refused, nothing run: a run the history does not hold, no damaged package apt can have again, or apt refused the request")
        case ExitStatus.leftBroken.rawValue:
            (status, "what dpkg was left half-way could not be finished (the cause of a failing script is still there); the command that repairs it is named")
        default: (status, text)
        }
    }
}
