/// What one `APT::Status-Fd` line says of a package of the plan, in apt's own terms and by the
/// package's position in the plan (`APTTransactionTracker.consume`). Nothing here is yet what
/// the job is told: `APTRunState` decides that (a download does not start an update; a verdict
/// waits until dpkg's output has moved past its package).
public enum APTStatusEvent: Sendable, Hashable {
    /// The package moved forward to `phase` (a download too), its bar's word `word` (`purged`
    /// for a purge's last phase). `jobPercent` is apt's overall figure, never lower than
    /// before, on dpkg's lines; `nil` on downloads.
    case reached(position: Int, phase: APTPackagePhase, word: String, jobPercent: Double?)
    /// A word on the package dpkg works on now: a configuration file kept (`pmconffile`).
    case note(position: Int, String)
    /// apt said the package's end: done (`Installed`, `Removed`, `Completely removed`) when
    /// `failure` is `nil`, else failed with apt's words (`pmerror`; empty when apt gave none).
    case ended(position: Int, failure: String?)

    /// The package's position in the plan.
    public var position: Int {
        switch self {
        case .reached(let position, _, _, _), .note(let position, _), .ended(let position, _): return position
        }
    }
}
