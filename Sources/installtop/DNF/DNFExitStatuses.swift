/// What each exit status means for the dnf commands (`DocumentedExitStatuses`): one table, the
/// undo's refusals worded apart.
enum DNFExitStatuses {
    /// `dnf`, `dnf install`, `dnf upgrade`, `dnf remove`.
    static let transaction = statuses(refused: refusedRequest)

    private static let refusedRequest = "dnf refused the request: an unknown package, a dependency problem, a repository it cannot read, "
        + "dnf's lock held, no permission, or no --installroot on a system dpkg manages"

    /// `dnf install`, `dnf upgrade`, `dnf remove`: a transaction's, and with `--confirm` the
    /// revert's (Documentation/COMMIT-CONFIRMED.md).
    static let armable = statuses(refused: refusedRequest + "; with --confirm also: arming refused, its revert could not be planned (nothing run)") + [
        (ExitStatus.reverted.rawValue,
         "with --confirm: the run was not confirmed by its deadline, or a check regressed with --revert-on-regression, and its undo put it back"),
    ]

    /// `dnf revert`, as `apt revert`.
    static let revert: [(status: Int32, meaning: String)] = [
        (ExitStatus.succeeded.rawValue, "with --due: nothing is due yet"),
        (ExitStatus.failed.rawValue, "refused (not armed, an apt run, confirmed or reverted already, being reverted elsewhere), or the undo failed: the run is recorded expired"),
        (ExitStatus.invalidUsage.rawValue, "invalid usage (an unknown option, a missing argument)"),
        (ExitStatus.reverted.rawValue, "reverted: the run's undo put it back"),
    ]

    /// `dnf undo`: its refusals are invalid usage too, nothing was run.
    static let undo = statuses(refused: "refused, nothing run: a run the history does not hold, one that cannot be undone (its reason), "
        + "a package changed outside installtop since, another root named, or dnf refused the request")

    private static func statuses(refused: String) -> [(status: Int32, meaning: String)] {
        [
            (ExitStatus.succeeded.rawValue, "every package done, or nothing to do"),
            (ExitStatus.failed.rawValue, "some package failed, or the plan was not confirmed (answered n, or off a terminal without --yes)"),
            (ExitStatus.invalidUsage.rawValue, refused),
            (ExitStatus.aborted.rawValue, "aborted by the operator or a signal (before rpm's transaction nothing was installed; during it, the stop waited for its end)"),
            (ExitStatus.rebootRequired.rawValue, "done, and a reboot is required (dnf's needs-restarting rule)"),
        ]
    }
}
