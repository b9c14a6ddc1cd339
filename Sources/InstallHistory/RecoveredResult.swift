#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// What became of a row whose writer died, as a caller that can look says (for a package of
/// an observed job: dpkg's final state and log), for `HistoryStore.recoverInterruptedEntries`.
public enum RecoveredResult: Sendable, Hashable {
    /// What the row stands for is still under way (its transaction runs, dpkg's lock is
    /// held): the row stays running, for a later recovery.
    case stillRunning
    /// The row is settled with this result; `endedAt` is when it ended if the caller knows
    /// (its duration is then recorded too), else the time of the recovery.
    case settled(resultCode: OperationResultCode, hResult: HResult, reason: String, endedAt: Date?)
}
