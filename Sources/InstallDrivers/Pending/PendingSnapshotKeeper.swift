import Dispatch
import EngineWire
import InstallEngine
import Synchronization

/// The pending snapshot an engine keeps of its apt root (Documentation/MANY-HOSTS.md "Fleet patching"): computed
/// when the keeper starts, after every job that may have changed the root completes (a job of
/// a driver, such as apt's; an observed transaction; a refresh), and on request; what the
/// engine's `pending` command answers. A job of commands does not count: reading the root
/// costs seconds of CPU on a real system, and an engine that runs thousands of small jobs
/// would spend them after each.
///
/// A snapshot takes no lock, yet one read while this engine's own package job runs would show a
/// root half-way through a transaction: while a job of a driver (apt, Ansible) or a refresh job
/// runs, a computation waits, and one that was under way when such a job started is done again
/// after it. Requests that come while one waits are one request. Computations run one at a
/// time on a thread of the keeper's own.
public final class PendingSnapshotKeeper: PendingSnapshotSource, Sendable {
    private struct State {
        var latest: PendingState = PendingState(snapshot: nil, computing: false)
        var computing = false
        var wanted = false
        /// This engine's jobs a computation waits for while they run, by number, known from
        /// `job.queued` (a queued apt job awaiting confirmation holds nothing back).
        var packageJobs: Set<Int> = []
        /// Those of them that started and have not completed.
        var running: Set<Int> = []
        /// Observed transactions not completed: the root changes under them, so a snapshot
        /// follows each.
        var observedJobs: Set<Int> = []
        /// The refresh jobs not completed: from the moment one is queued a snapshot is owed
        /// after it, so a `wait` after a refresh waits for it.
        var refreshes: Set<Int> = []
        /// A package job started while the computation under way ran: its result is kept, and a
        /// new one follows the job.
        var overlapped = false
        var waiters: [@Sendable (PendingState) -> Void] = []
        var subscription: EventSubscription?
        var stopped = false

        /// The latest snapshot, and whether a newer one is coming.
        var answer: PendingState { PendingState(snapshot: latest.snapshot, computing: isComputing) }

        /// A newer snapshot is being computed or owed.
        var isComputing: Bool { computing || wanted || !refreshes.isEmpty }

        /// What a waiter waits for is over: no snapshot is being computed, none is about to
        /// start, and no refresh job is queued or running. One owed after another running
        /// package job is not waited for: an apt job may take an hour, and the answer then
        /// says a newer snapshot is coming.
        var isSettled: Bool { !computing && refreshes.isEmpty && !(wanted && running.isEmpty) }
    }

    private let queue: JobQueue
    private let aptConfig: String?
    private let compute: @Sendable () -> PendingSnapshot
    private let state = Mutex(State())
    private let work = SerialWorkQueue(runningOn: .ownThread(name: "pending"))

    /// A keeper of the snapshot of the root `aptConfig` names (the system's when `nil`), whose
    /// jobs come from `queue`. Nothing is computed until `start()`.
    /// - Parameter compute: reads a snapshot (`PendingSnapshotReader` of that root by default;
    ///   tests may count or slow it).
    public init(queue: JobQueue, aptConfig: String?, compute: (@Sendable () -> PendingSnapshot)? = nil) {
        self.queue = queue
        self.aptConfig = aptConfig
        self.compute = compute ?? { PendingSnapshotReader.read(aptConfig: aptConfig) }
    }

    /// Follows the queue's jobs and computes the first snapshot.
    public func start() {
        let subscription = queue.subscribe { [weak self] event in self?.observe(event) }
        state.withLock { $0.subscription = subscription }
        recompute()
    }

    /// Stops following the queue and waits for a computation under way to end; nothing is
    /// computed afterwards. Waiters not yet answered get the state then.
    public func stop() {
        let (subscription, waiters) = state.withLock { state in
            state.stopped = true
            defer {
                state.subscription = nil
                state.waiters = []
            }
            return (state.subscription, state.waiters)
        }
        subscription?.cancel()
        let drained = DispatchSemaphore(value: 0)
        work.whenDelivered(work.enqueue {}) { drained.signal() }
        drained.wait()
        let now = current()
        for waiter in waiters { waiter(now) }
    }

    // MARK: - PendingSnapshotSource

    public func current() -> PendingState {
        state.withLock(\.answer)
    }

    public func recompute() {
        state.withLock { $0.wanted = true }
        startIfDue()
    }

    public func whenSettled(_ body: @escaping @Sendable (PendingState) -> Void) {
        let now = state.withLock { state -> PendingState? in
            guard state.isSettled || state.stopped else {
                state.waiters.append(body)
                return nil
            }
            return state.answer
        }
        if let now { body(now) }
    }

    public func refresh() -> Result<Int, WireError> {
        let environment: APTEnvironment
        do {
            environment = try APTEnvironment.resolve(aptConfig: aptConfig)
        } catch {
            return .failure(WireError(.invalidJob, "apt's lists cannot be refreshed: \(error.message)"))
        }
        let update = Update(
            id: "apt-get-update", title: "apt-get update",
            installCommand: .argv(environment.command([PendingSnapshotReader.aptGet, "-q", "update"])),
            progressSource: .none, environment: environment.commandEnvironment,
            description: "Refreshes apt's lists of \(environment.root == "/" ? "this system" : environment.root); a pending snapshot follows.")
        do {
            let descriptor = try queue.submit(name: "Refresh apt's lists", updates: [update]) { descriptor in
                // Before the job can start: its start and end are then known to wait for.
                state.withLock { state in
                    state.packageJobs.insert(descriptor.id)
                    state.refreshes.insert(descriptor.id)
                }
            }
            return .success(descriptor.id)
        } catch {
            return .failure(WireError(.invalidJob, "apt's lists cannot be refreshed: \(error.description)"))
        }
    }

    // MARK: - Following the jobs

    private func observe(_ event: EngineEvent) {
        switch event.kind {
        case .jobQueued(let descriptor) where descriptor.runByDriver && descriptor.observedBy == nil:
            state.withLock { _ = $0.packageJobs.insert(descriptor.id) }
        case .jobQueued(let descriptor) where descriptor.observedBy != nil:
            state.withLock { _ = $0.observedJobs.insert(descriptor.id) }
        case .jobStarted(let start):
            let (waiters, answer) = state.withLock { state -> ([@Sendable (PendingState) -> Void], PendingState) in
                guard state.packageJobs.contains(start.job) else { return ([], state.answer) }
                state.running.insert(start.job)
                if state.computing { state.overlapped = true }
                guard state.isSettled else { return ([], state.answer) }
                defer { state.waiters = [] }
                return (state.waiters, state.answer)
            }
            for waiter in waiters { waiter(answer) }
        case .jobCompleted(let completion):
            state.withLock { state in
                state.running.remove(completion.job)
                state.refreshes.remove(completion.job)
                let changedTheRoot = state.packageJobs.remove(completion.job) != nil || state.observedJobs.remove(completion.job) != nil
                if changedTheRoot { state.wanted = true }
            }
            startIfDue()
        default:
            break
        }
    }

    // MARK: - Computing

    /// Starts a computation when one is wanted, none runs and no package job runs.
    private func startIfDue() {
        let due = state.withLock { state -> Bool in
            guard state.wanted, !state.computing, state.running.isEmpty, !state.stopped else { return false }
            state.wanted = false
            state.computing = true
            state.overlapped = false
            return true
        }
        guard due else { return }
        work.enqueue { [self] in
            let snapshot = compute()
            let json = try? JSONParser.parse(PendingSnapshotCoding.encode(snapshot))
            let (waiters, settled) = state.withLock { state -> ([@Sendable (PendingState) -> Void], PendingState) in
                state.latest = PendingState(snapshot: json, computing: false)
                state.computing = false
                if state.overlapped { state.wanted = true }
                guard state.isSettled else { return ([], state.answer) }
                defer { state.waiters = [] }
                return (state.waiters, state.answer)
            }
            for waiter in waiters { waiter(settled) }
            startIfDue()
        }
    }
}
