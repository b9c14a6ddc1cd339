import Synchronization

/// The history's run id of one job (`jobRun` table), reserved once by whichever needs it first:
/// an apt job's keeper, which names the undo folder after it before dpkg runs (rule 33), or the
/// recorder, at the job's first row. Both then write under the same id.
public final class JobRunSlot: Sendable {
    private let id = Mutex<Int64?>(nil)
    private let knownOrigin = Mutex<JobRunOrigin?>(nil)

    public init() {}

    /// What the run is to record as its origin (`JobRunOrigin`), told by whichever learns it
    /// first (an apt job's keeper, when apt's hook gives the plan) for whichever reserves the run;
    /// `nil` until told.
    public var origin: JobRunOrigin? {
        get { knownOrigin.withLock { $0 } }
        set { knownOrigin.withLock { $0 = newValue } }
    }

    /// The id, when one was reserved.
    public var reserved: Int64? { id.withLock { $0 } }

    /// The id, reserved by `reserve` when there is none yet. `reserve` runs under the slot's
    /// lock, so two callers never reserve two ids; when it throws, nothing is reserved.
    public func id(orReserve reserve: () throws(HistoryError) -> Int64) throws(HistoryError) -> Int64 {
        try id.withLock { (id: inout Int64?) throws(HistoryError) -> Int64 in
            if let id { return id }
            let made = try reserve()
            id = made
            return made
        }
    }
}
