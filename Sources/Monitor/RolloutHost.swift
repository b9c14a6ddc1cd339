/// One host of a board's rollout (`U`): its name and how far its `apt upgrade` got.
public struct RolloutHost: Sendable, Hashable {
    /// Where a host's upgrade stands. The jobs are board job numbers.
    public enum Phase: Sendable, Hashable {
        /// Submitted; its engine has not yet queued the planned job (apt's simulation runs).
        case planning
        /// Its engine holds the planned job awaiting confirmation: the dialog shows the plan.
        case held(job: Int)
        /// Said yes to; waits for a free slot (at most `Rollout.parallel` run at once).
        case waiting(job: Int)
        /// Its `confirm` was sent: the job runs, or is queued on its engine.
        case started(job: Int)
        /// Its job completed without a failed update.
        case succeeded(job: Int)
        /// Its job completed failed or aborted: no new host starts until the operator says so.
        case failed(job: Int)
        /// Said no to (the dialog, `X`, quitting), its held job declined: it runs nothing.
        case declined
        /// Its engine queued nothing: apt had nothing to upgrade (`upToDate`), or it refused
        /// for `reason`.
        case notQueued(reason: String, upToDate: Bool)
    }

    /// The host's name as the board shows it.
    public let name: String
    public internal(set) var phase: Phase = .planning
    /// Whether the dialog's `y` starts it (Space toggles it per host); a host left out is
    /// declined.
    public internal(set) var included = true

    public init(name: String) {
        self.name = name
    }

    /// The board job this host's upgrade is, once its engine queued it.
    public var job: Int? {
        switch phase {
        case .held(let job), .waiting(let job), .started(let job), .succeeded(let job), .failed(let job): return job
        case .planning, .declined, .notQueued: return nil
        }
    }

    /// Not started yet and still to start (planning, held or waiting): what quitting or `X`
    /// declines.
    public var isLeft: Bool {
        switch phase {
        case .planning, .held, .waiting: return true
        case .started, .succeeded, .failed, .declined, .notQueued: return false
        }
    }
}
