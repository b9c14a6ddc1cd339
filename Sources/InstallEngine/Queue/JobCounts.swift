/// How far a job got, counted one way wherever a job's counts are shown (the monitor's header,
/// jobs pane, updates pane and job detail, `status`): `done` of `total` updates are **done**,
/// which means installed (or uninstalled): succeeded, with or without reported errors. A failed
/// or aborted update has its final result but is not done, so a job that stopped early never
/// reads "4/4", and `allDone` is true only when every update got installed.
public struct JobCounts: Sendable, Hashable {
    /// How many updates the job has.
    public private(set) var total: Int
    /// Updates installed: succeeded, with or without reported errors (a driver's skipped task
    /// included: it counts as succeeded, rule 16).
    public private(set) var done = 0
    /// Updates that failed.
    public private(set) var failed = 0
    /// Updates aborted, or never reached (`UpdateResultMark.notReached`).
    public private(set) var aborted = 0

    /// Nothing counted yet, of `total` updates.
    public init(total: Int) {
        self.total = max(0, total)
    }

    /// The counts of `job`, from a walk over its updates.
    public init(_ job: JobState) {
        self.init(total: job.updates.count)
        for update in job.updates { count(update.result.resultCode) }
    }

    /// Counts one update's result `code`, in place of the `previous` result it had counted
    /// with (a result given again); a result that is not final (queued, running) counts nowhere.
    public mutating func count(_ code: OperationResultCode, replacing previous: OperationResultCode? = nil) {
        if let previous { add(previous, -1) }
        add(code, 1)
    }

    private mutating func add(_ code: OperationResultCode, _ amount: Int) {
        switch code {
        case .succeeded, .succeededWithErrors: done += amount
        case .failed: failed += amount
        case .aborted: aborted += amount
        case .notStarted, .inProgress: break
        }
    }

    /// One more update in the job (one added while it runs, rule 28).
    public mutating func added() {
        total += 1
    }

    /// Updates with their final result, done or not.
    public var finished: Int { done + failed + aborted }

    /// True when every update got installed (false for a job without updates).
    public var allDone: Bool { total > 0 && done == total }

    /// `2/4`: done of total, the form every view shows.
    public var text: String { "\(done)/\(total)" }

    /// The sum of two jobs' counts (the header's count over the queue).
    public static func + (left: JobCounts, right: JobCounts) -> JobCounts {
        var sum = JobCounts(total: left.total + right.total)
        sum.done = left.done + right.done
        sum.failed = left.failed + right.failed
        sum.aborted = left.aborted + right.aborted
        return sum
    }
}
