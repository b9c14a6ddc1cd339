/// A package dpkg has half-way now (unpacked, half-configured, half-installed, waiting for
/// triggers, flagged reinstall-required), as whoever lists job runs reads it from dpkg: the
/// history cannot read dpkg itself (`HistoryStore.jobRuns`).
public struct HalfWayPackage: Sendable, Hashable {
    /// The version dpkg has of it.
    public var version: String
    /// dpkg's state in words, `half-configured at 2.0 (iF)`.
    public var words: String
    /// Whether only a repair finishes it before apt can act on it: it needs its archive again
    /// (half-installed, reinstall-required: `dpkg --configure -a` leaves it as it is), or dpkg's
    /// journal is open (cut off mid-run: apt plans nothing, "dpkg was interrupted").
    public var needsRepair: Bool

    public init(version: String, words: String, needsRepair: Bool) {
        self.version = version
        self.words = words
        self.needsRepair = needsRepair
    }
}
