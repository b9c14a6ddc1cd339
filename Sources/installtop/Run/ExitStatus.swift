import InstallEngine

/// installtop's exit statuses (PRODUCT.md). When several apply, the first in the order
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
    /// repair did not succeed); its reason names the command that repairs it.
    case leftBroken = 5

    /// The status for the results of a run; `unfinished` when some job never completed,
    /// `declined` when the plan of one was declined (it never ran: not an abort).
    init(results: [InstallationResult], unfinished: Bool, declined: Bool = false) {
        let updateCodes = results.flatMap { $0.updateResults.map(\.resultCode) }
        // A job the driver never reached (every update marked so) was aborted by no one.
        let neverReached = { (result: InstallationResult) in result.updateResults.allSatisfy { $0.mark == .notReached } }
        if results.contains(where: { $0.updateResults.contains { $0.hResult == .systemLeftBroken } }) {
            self = .leftBroken
        } else if unfinished || results.contains(where: { $0.resultCode == .aborted && !neverReached($0) }) {
            self = .aborted
        } else if declined || results.contains(where: { $0.resultCode != .succeeded }) || updateCodes.contains(where: { $0 != .succeeded }) {
            self = .failed
        } else if results.contains(where: \.rebootRequired) {
            self = .rebootRequired
        } else {
            self = .succeeded
        }
    }
}
