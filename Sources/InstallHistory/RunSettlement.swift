#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What became of an interrupted run (`InterruptedRun`), as a caller that can ask dpkg says.
public enum RunSettlement: Sendable, Hashable {
    /// Its transaction may still run (dpkg's lock is held there): left for a later look.
    case stillRunning
    /// Each package of its plan settled (by name; a package without a verdict keeps its row as
    /// it is, or gets none), and the run ended at `endedAt` (the time of the recovery when
    /// `nil`).
    case settled(packages: [String: RecoveredResult], endedAt: Date?)
}
