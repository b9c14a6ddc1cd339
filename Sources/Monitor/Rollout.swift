/// Hosts upgraded a few at a time (Documentation/MANY-HOSTS.md "The board"), as one value machine
/// that the board's `U` and `installtop apt upgrade --hosts` both run: each host's engine plans
/// an `apt upgrade` and holds it (`planHeld`, `planRefused`); one answer takes the hosts or
/// declines them all (`answer`); the hosts taken start in the order given, whatever order their
/// plans came in, at most `parallel` at once, a held job's `confirm` sent as a slot frees; an
/// unreachable host waits without holding the others back. After a host's job fails no new
/// host starts until the runner resumes or stops; the running ones go on either way. A declined
/// or stopped host's held job is declined, so that nothing is left waiting for a yes.
public struct Rollout: Sendable, Hashable {
    /// The hosts, in board order: the order they start in.
    public internal(set) var hosts: [RolloutHost]
    /// How many hosts run at once (`attach --parallel N`), at least 1.
    public let parallel: Int
    /// Each host runs `apt full-upgrade` (new and removed packages too) rather than `apt upgrade`.
    public let full: Bool
    /// Each host's run is armed with this window, in seconds (commit-confirmed): undone on the
    /// host unless kept in time. `nil`: the runs stay as they end.
    public let confirmSeconds: Double?
    /// The host whose failure holds new starts back; `nil` while starting goes on.
    public internal(set) var pausedBy: String?
    /// The dialog was answered: `y` (hosts start) or no (everything declined).
    public internal(set) var answered = false
    /// The dialog's selected host and how far its list is scrolled.
    var cursor = 0
    var scroll = 0

    /// A rollout of `hosts` planning, `parallel` at a time (less than 1 counts as 1), a full
    /// upgrade when `full`, each host's run armed for `confirmSeconds` when given.
    public init(hosts: [String], parallel: Int, full: Bool = false, confirmSeconds: Double? = nil) {
        self.hosts = hosts.map(RolloutHost.init(name:))
        self.parallel = max(1, parallel)
        self.full = full
        self.confirmSeconds = confirmSeconds
    }

    /// The name each host's job is submitted with; its engine's plan adds its counts
    /// (`apt upgrade · 3 to upgrade · 1.2 MB to download`).
    public static func jobName(full: Bool) -> String { full ? "apt full-upgrade" : "apt upgrade" }

    /// Hosts whose job was confirmed and has not completed.
    public var runningCount: Int { hosts.count { if case .started = $0.phase { return true } else { return false } } }

    /// Hosts not started that still would be (planning, held, waiting).
    public var leftCount: Int { hosts.count(where: \.isLeft) }

    /// Hosts whose job completed, failed or not.
    public var doneCount: Int {
        hosts.count { host in
            switch host.phase {
            case .succeeded, .failed: return true
            default: return false
            }
        }
    }

    /// Nothing runs and nothing is left to start: the header forgets it.
    public var isOver: Bool { answered && runningCount == 0 && leftCount == 0 }

    /// The position of `host`, if it takes part.
    func index(of host: String) -> Int? { hosts.firstIndex { $0.name == host } }

    /// The host that runs `job`, if one does.
    public func host(ofJob job: Int) -> String? { hosts.first { $0.job == job }?.name }

    // MARK: - Plans

    /// `host`'s engine holds its planned job `job`. True when the rollout takes it as that
    /// host's (it was planning), or had it already (its queue shown afresh after a reconnect).
    public mutating func planHeld(host: String, job: Int) -> Bool {
        guard let index = index(of: host) else { return false }
        if hosts[index].job == job { return true }
        guard hosts[index].phase == .planning else { return false }
        hosts[index].phase = .held(job: job)
        return true
    }

    /// `host`'s engine queued nothing: apt had nothing to upgrade (`upToDate`), or it refused
    /// for `reason`. True when the host was planning (and is now out of the rollout).
    @discardableResult
    public mutating func planRefused(host: String, reason: String, upToDate: Bool) -> Bool {
        guard let index = index(of: host), hosts[index].phase == .planning else { return false }
        hosts[index].phase = .notQueued(reason: reason, upToDate: upToDate)
        return true
    }

    // MARK: - The answer

    /// The operator answered: `yes` takes the hosts left included, no leaves every one out.
    /// The held jobs are confirmed or declined by the next `advance`.
    public mutating func answer(yes: Bool) {
        if !yes { for index in hosts.indices { hosts[index].included = false } }
        answered = true
    }

    /// Leaves the host at `index` out of the answer to come, or takes it back.
    mutating func toggleIncluded(at index: Int) {
        guard hosts.indices.contains(index) else { return }
        hosts[index].included.toggle()
    }

    // MARK: - Running

    /// Brings the rollout up to date with what the runner sees of each job, and says what to
    /// do: once answered, a held job is queued to start (taken) or declined (left out); a job
    /// that ran to its end makes its host succeeded or failed (a first failure with hosts left
    /// pauses); a job gone with no end makes a started host failed (the operator decides),
    /// another declined. Then, unless paused, the next taken hosts start in order while fewer
    /// than `parallel` run: a taken host whose plan has not come yet holds back those after
    /// it; one that is not `reachable` waits without holding them (nothing reaches it). Call it
    /// after every change the runner sees.
    public mutating func advance(seeing sight: (Int) -> RolloutJobSight, reachable: (String) -> Bool) -> [RolloutStep] {
        var steps: [RolloutStep] = []
        for index in hosts.indices {
            let host = hosts[index]
            if case .held(let job) = host.phase, answered {
                if host.included {
                    hosts[index].phase = .waiting(job: job)
                } else {
                    hosts[index].phase = .declined
                    steps.append(.decline(job: job))
                    continue
                }
            }
            guard let job = hosts[index].job else { continue }
            let started: Bool
            switch hosts[index].phase {
            case .held, .waiting: started = false
            case .started: started = true
            default: continue
            }
            switch sight(job) {
            case .unknown:
                continue
            case .gone:
                if started {
                    hosts[index].phase = .failed(job: job)
                    steps += pause(by: host.name)
                } else {
                    hosts[index].phase = .declined
                }
            case .completed(let failed):
                hosts[index].phase = failed ? .failed(job: job) : .succeeded(job: job)
                if failed { steps += pause(by: host.name) }
            case .running:
                hosts[index].phase = .started(job: job)
            case .queued:
                break
            }
        }
        guard answered, pausedBy == nil else { return steps }
        var running = runningCount
        starting: for index in hosts.indices where running < parallel {
            let host = hosts[index]
            guard reachable(host.name) else { continue }
            switch host.phase {
            case .waiting(let job):
                hosts[index].phase = .started(job: job)
                steps.append(.confirm(job: job))
                running += 1
            case .planning where host.included:
                break starting
            default:
                continue
            }
        }
        return steps
    }

    /// Holds new starts back after `host` failed, while hosts are left to start.
    private mutating func pause(by host: String) -> [RolloutStep] {
        guard pausedBy == nil, hosts.contains(where: { $0.isLeft && $0.included }) else { return [] }
        pausedBy = host
        return [.paused(host: host)]
    }

    /// New hosts start again after a pause (the next `advance` starts them); the host that
    /// paused it, or `nil` when it was not paused.
    public mutating func resume() -> String? {
        defer { pausedBy = nil }
        return pausedBy
    }

    /// No further host starts: every host not started is declined, its held or waiting job at
    /// once (returned), a plan still being made when it comes (`advance`); the running ones
    /// go on.
    public mutating func stop() -> [RolloutStep] {
        answered = true
        pausedBy = nil
        var steps: [RolloutStep] = []
        for index in hosts.indices where hosts[index].isLeft {
            hosts[index].included = false
            switch hosts[index].phase {
            case .held(let job), .waiting(let job):
                hosts[index].phase = .declined
                steps.append(.decline(job: job))
            default:
                break
            }
        }
        return steps
    }
}
