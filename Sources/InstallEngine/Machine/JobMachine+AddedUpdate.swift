#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An update a driver adds to its running job (rule 28: an observed job without a plan gets
/// one for each package dpkg names that it does not have yet).
extension JobMachine {
    /// The driver adds `update` after the job's last one and starts it now (rule 21: it starts
    /// when the driver first speaks of it). Refused as a protocol error (rule 22) unless the job
    /// `acceptsAddedUpdates` and its driver runs, or when `update.id` is the id of an update the
    /// job has: the driver reports on that one by its index.
    mutating func driverUpdateAdded(_ update: Update, now: Date, into actions: inout [JobAction]) {
        guard phase == .driverRunning, acceptsAddedUpdates, !updates.contains(where: { $0.id == update.id }) else {
            countProtocolError()
            return
        }
        let index = append(update)
        markStarted(at: index, now: now, announcing: .updateAdded(index: index, update: update), into: &actions)
    }
}
