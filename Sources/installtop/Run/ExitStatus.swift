import InstallEngine

/// installtop's exit statuses (Documentation/EXIT-STATUS.md). When several apply, the first in the order
/// invalidUsage, leftBroken, aborted, failed, rebootRequired wins: a broken package database
/// comes before the abort that usually caused it, since it is what the operator must act on.
enum ExitStatus: Int32 {
    case succeeded = 0
    /// Some update failed or succeeded with errors, or a plan was not confirmed (declined, or
    /// off a terminal without `--yes`).
    case failed = 1
    /// Invalid usage or manifest.
    case invalidUsage = 2
    case aborted = 3
    /// Everything succeeded and a reboot is required.
    case rebootRequired = 4
    /// An update left the system broken (dpkg's database after a forced apt abort whose
    /// repair did not succeed, or apt's dependencies after a graceful stop between two
    /// packages one of which needs the other at its own version); its reason names the
    /// command that repairs it.
    case leftBroken = 5
    /// `restarts` only: nothing it could read needs a restart or reboot, but it could not read
    /// some processes (another user's, when not root), so that is no all-clear. Not 4, which
    /// says "reboot required" for the commands that run jobs.
    case incomplete = 6
    /// A commit-confirmed job (`--confirm`) was not confirmed by its deadline, or a check
    /// regressed and `--revert-on-regression` asked for a revert: its run was undone from the
    /// kept versions (Documentation/COMMIT-CONFIRMED.md).
    case reverted = 7

    /// The status for the results of a run; `unfinished` when some job never completed,
    /// `declined` when the plan of one was declined (it never ran: not an abort).
    init(results: [InstallationResult], unfinished: Bool, declined: Bool = false) {
        // An update the driver never reached (a host of a `serial` batch a play never came to)
        // failed in nothing and was aborted by no one: it makes the status neither 1 nor 3, and
        // neither does a job that did not succeed only for such updates.
        // Nor does a failure Ansible's meta clear_host_errors took back: Ansible's exit status
        // does not count it either.
        let counted = { (result: InstallationResult) in result.updateResults.filter { $0.mark != .notReached && $0.mark != .cleared } }
        let neverReached = { (result: InstallationResult) in counted(result).isEmpty }
        let onlyUnreached = { (result: InstallationResult) in
            !result.updateResults.isEmpty && counted(result).allSatisfy { $0.resultCode == .succeeded }
        }
        if results.contains(where: { $0.updateResults.contains { $0.hResult == .systemLeftBroken } }) {
            self = .leftBroken
        } else if unfinished || results.contains(where: { $0.resultCode == .aborted && !neverReached($0) }) {
            self = .aborted
        } else if declined || results.contains(where: { $0.resultCode != .succeeded && !onlyUnreached($0) })
                    || results.contains(where: { counted($0).contains { $0.resultCode != .succeeded } }) {
            self = .failed
        } else if results.contains(where: \.rebootRequired) {
            self = .rebootRequired
        } else {
            self = .succeeded
        }
    }
}
