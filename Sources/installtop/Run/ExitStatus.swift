import InstallEngine

/// installtop's exit statuses (PRODUCT.md). When several apply, the first in the order
/// invalidUsage, aborted, failed, rebootRequired wins.
enum ExitStatus: Int32 {
    case succeeded = 0
    /// Some update failed or succeeded with errors.
    case failed = 1
    /// Invalid usage or manifest.
    case invalidUsage = 2
    case aborted = 3
    /// Everything succeeded and a reboot is required.
    case rebootRequired = 4

    /// The status for a finished queue.
    init(finishedQueue model: QueueModel) {
        let results = model.jobs.compactMap(\.result)
        let updateCodes = model.jobs.flatMap { $0.updates.map(\.result.resultCode) }
        if results.contains(where: { $0.resultCode == .aborted }) || model.jobs.contains(where: { $0.result == nil }) {
            self = .aborted
        } else if results.contains(where: { $0.resultCode != .succeeded })
            || updateCodes.contains(where: { $0 != .succeeded }) {
            self = .failed
        } else if results.contains(where: \.rebootRequired) {
            self = .rebootRequired
        } else {
            self = .succeeded
        }
    }
}
