import Dispatch
import EngineWire
import InstallEngine
import Synchronization

/// The pending snapshot an engine keeps of its apt root (Documentation/MANY-HOSTS.md "Fleet patching"): computed
/// when the keeper starts, after every job that may have changed the root completes (a job of
/// a driver, such as apt's; an observed transaction; a refresh), once after every change to the
/// root that anyone made (dpkg's status, apt's lists: `PackageStateWatcher`, hooks or not), and
/// on request; what the engine's `pending` command answers and pushes to its clients
/// (`observe`). A job of commands does not count: reading the root costs seconds of CPU on a
/// real system, and an engine that runs thousands of small jobs would spend them after each.
///
/// A change is computed once: a change that a computation started after has seen already (the
/// end of this engine's own job, which recomputes anyway) asks for nothing more. While a change
/// is under way (dpkg's lock held, the status being rewritten) the state says a newer snapshot
/// is coming.
///
/// A snapshot takes no lock, yet one read during a transaction would show a root half-way
/// through it: while a job of a driver (apt, Ansible) or a refresh job runs, while a transaction
/// it watches (an observed job) is under way, and while anyone holds dpkg's or apt's locks or
/// rewrites dpkg's status, a computation waits, and one that was under way when such a thing
/// began is done again after it. Requests that come while one waits are one request.
/// Computations run one at a time on a thread of the keeper's own.
///
/// When such a job ends, its outcome is applied to the last snapshot at once
/// (`PendingSnapshot.assuming`: what it installed leaves the lists) and pushed, marked
/// computing, until the new reading comes: apt takes seconds to read a root, and a row that
/// went back to the count from before the job for that long would say the job did nothing.
public final class PendingSnapshotKeeper: PendingSnapshotSource, Sendable {
    private struct State {
        /// The newest snapshot (read from apt, or a job's outcome applied to the last one read),
        /// with its encoding, made once: every answer and push carries it. `nil` before the first.
        var latest: (snapshot: PendingSnapshot, json: JSONValue?)?
        /// The update ids (package names, for apt's jobs and observed transactions) of the jobs
        /// that may change the root, by job, while they are not completed; `nil` for an update
        /// that does not bring its package up to date (a downgrade, a removal).
        var jobPackages: [Int: [String?]] = [:]
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
        var observers: [@Sendable (PendingState) -> Void] = []
        var subscription: EventSubscription?
        var watcher: PackageStateWatcher?
        /// Someone changes the root (`PackageStateWatcher` said `changing`, not yet `settled`).
        var rootChanging = false
        /// The snapshot wanted or being computed was only asked for (`recompute`, a client's
        /// `pending`), nothing known to have changed: it is not said to be coming, so a client
        /// that asks every fraction of a second does not make the board's rows flicker
        /// `recomputing`. Anything that changes the root clears it.
        var onlyAsked = false
        /// When the newest computation started: a change before it is in its snapshot.
        var lastStartedAt: ContinuousClock.Instant?
        var stopped = false

        /// The latest snapshot, and whether a newer one is coming.
        var answer: PendingState { PendingState(snapshot: latest?.json, computing: isComputing) }

        /// A newer snapshot is being computed or owed because the root changed.
        var isComputing: Bool { (computing || wanted) && !onlyAsked || rootChanging || !refreshes.isEmpty }

        /// What a waiter waits for is over: no snapshot is being computed, none is about to
        /// start (a change under way settles within a second of its end), and no refresh job
        /// is queued or running. One owed after a running package job or a transaction being
        /// watched is not waited for: an apt job may take an hour, and the answer then says a
        /// newer snapshot is coming.
        var isSettled: Bool { !computing && refreshes.isEmpty && !(wanted && running.isEmpty && observedJobs.isEmpty) }

        /// The waiters to answer now, taken from the state, with the answer: every one once the
        /// state is settled (`isSettled`), none before.
        mutating func takeWaitersIfSettled() -> ([@Sendable (PendingState) -> Void], PendingState) {
            guard isSettled else { return ([], answer) }
            defer { waiters = [] }
            return (waiters, answer)
        }

        /// Nothing changes the root now: no package job of this engine runs, no transaction it
        /// watches is under way, and nobody else is changing it (dpkg's or apt's locks held,
        /// dpkg's status being rewritten). A snapshot read otherwise would be of a root
        /// half-way through a transaction (apt-get runs dpkg several times, the locks free in
        /// between only for a moment).
        var mayStart: Bool { running.isEmpty && observedJobs.isEmpty && !rootChanging }
    }

    private let queue: JobQueue
    private let aptConfig: String?
    private let compute: @Sendable () -> PendingSnapshot
    /// What is watched for changes made by anyone; `nil`: the root `aptConfig` names, when
    /// the snapshot is read from it.
    private let watching: PackageStateWatcher.Places?
    private let watchesTheRoot: Bool
    private let polling: Bool
    private let log: @Sendable (String) -> Void
    /// Ends the computation under way when the keeper stops.
    private let cancellation: CommandCancellation
    private let state = Mutex(State())
    /// Held while observers are told, so that they hear the states in order.
    private let telling = Mutex<PendingState?>(nil)
    private let work = SerialWorkQueue(runningOn: .ownThread(name: "pending"))

    /// A keeper of the snapshot of the root `aptConfig` names (the system's when `nil`), whose
    /// jobs come from `queue`. Nothing is computed or watched until `start()`.
    /// - Parameters:
    ///   - compute: reads a snapshot (`PendingSnapshotReader` of that root by default; tests
    ///     may count or slow it).
    ///   - watching: the folders whose changes ask for a snapshot; by default those of the root
    ///     (resolved with `apt-config` when the keeper starts) when `compute` is the default,
    ///     none otherwise.
    ///   - polling: the root is looked at twice a second rather than watched with inotify (as
    ///     when inotify cannot be had; tests use it).
    ///   - log: where a root that cannot be watched, or is polled, is said (its rows then follow
    ///     only the jobs this engine sees, or follow it within a poll).
    ///   - repairRun: the run whose `installtop apt repair RUN` finishes packages dpkg left
    ///     half-installed (`PendingSnapshotReader.read`); `nil` names apt-get's reinstall.
    ///   - dating: gives each computed snapshot's packages their `firstSeen` (the history's
    ///     record), on the keeper's thread; `nil` leaves them undated.
    public init(queue: JobQueue, aptConfig: String?, watching: PackageStateWatcher.Places? = nil, polling: Bool = false,
                log: @escaping @Sendable (String) -> Void = { _ in }, repairRun: (@Sendable ([String]) -> Int64?)? = nil,
                dating: (@Sendable (PendingSnapshot) -> [PendingPackage])? = nil,
                compute: (@Sendable () -> PendingSnapshot)? = nil) {
        self.queue = queue
        self.polling = polling
        self.aptConfig = aptConfig
        self.watching = watching
        self.log = log
        watchesTheRoot = compute == nil
        let cancellation = CommandCancellation()
        self.cancellation = cancellation
        let read: @Sendable () -> PendingSnapshot = compute ?? {
            PendingSnapshotReader.read(aptConfig: aptConfig, cancellation: cancellation, repairRun: repairRun)
        }
        self.compute = {
            var snapshot = read()
            if let dating { snapshot.packages = dating(snapshot) }
            return snapshot
        }
    }

    /// Follows the queue's jobs, starts watching the root, and computes the first snapshot.
    public func start() {
        let subscription = queue.subscribe { [weak self] event in self?.observe(event) }
        state.withLock { $0.subscription = subscription }
        // Before the first computation, on its thread (`apt-config` may take a while): a change
        // made while it runs is then seen.
        work.enqueue { [self] in startWatching() }
        // Owed, not only asked for: nothing is known of the root yet.
        state.withLock { $0.wanted = true }
        startIfDue()
        tell()
    }

    /// Stops following the queue and watching the root, and ends a computation under way (its
    /// apt is killed: it changes nothing); nothing is computed afterwards. Returns within about
    /// the time a process takes to die. Waiters not yet answered get the state then.
    public func stop() {
        let (subscription, watcher, waiters) = state.withLock { state in
            state.stopped = true
            defer {
                state.subscription = nil
                state.watcher = nil
                state.waiters = []
                state.observers = []
            }
            return (state.subscription, state.watcher, state.waiters)
        }
        subscription?.cancel()
        cancellation.cancel()
        watcher?.stop()
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
        state.withLock { state in
            // A reading under way with nothing changed since it began answers this request as
            // a new one would: asking again would keep every waiter waiting for as long as
            // requests come (concurrent `installtop pending` polls were all answered only once
            // they stopped).
            if state.computing && !state.wanted && state.mayStart { return }
            // Only asked: the root is not known to have changed (that sets `wanted` too), and
            // nothing holds a computation back (after which one is owed anyway).
            if !state.wanted && !state.computing && state.mayStart { state.onlyAsked = true }
            state.wanted = true
        }
        startIfDue()
        tell()
    }

    public func observe(_ body: @escaping @Sendable (PendingState) -> Void) {
        telling.withLock { told in
            let now = state.withLock { state -> (PendingState, [@Sendable (PendingState) -> Void])? in
                guard !state.stopped else { return nil }
                state.observers.append(body)
                return (state.answer, state.observers)
            }
            guard let (answer, observers) = now else { return }
            // The newcomer hears the state at once; the others only if it is news to them.
            for observer in answer == told ? [body] : observers { observer(answer) }
            told = answer
        }
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
            tell()
            return .success(descriptor.id)
        } catch {
            return .failure(WireError(.invalidJob, "apt's lists cannot be refreshed: \(error.description)"))
        }
    }

    // MARK: - Following the jobs

    private func observe(_ event: EngineEvent) {
        switch event.kind {
        case .jobQueued(let descriptor) where descriptor.runByDriver && descriptor.observedBy == nil:
            state.withLock { state in
                state.packageJobs.insert(descriptor.id)
                state.jobPackages[descriptor.id] = Self.installing(descriptor)
            }
        case .jobQueued(let descriptor) where descriptor.observedBy != nil:
            state.withLock { state in
                state.observedJobs.insert(descriptor.id)
                state.jobPackages[descriptor.id] = Self.installing(descriptor)
                // Its transaction began: a reading under way may be half-way through it.
                if state.computing { state.overlapped = true }
            }
        case .jobStarted(let start):
            let (waiters, answer) = state.withLock { state -> ([@Sendable (PendingState) -> Void], PendingState) in
                guard state.packageJobs.contains(start.job) else { return ([], state.answer) }
                state.running.insert(start.job)
                if state.computing { state.overlapped = true }
                return state.takeWaitersIfSettled()
            }
            for waiter in waiters { waiter(answer) }
        case .jobCompleted(let completion):
            state.withLock { state in
                state.running.remove(completion.job)
                state.refreshes.remove(completion.job)
                let changedTheRoot = state.packageJobs.remove(completion.job) != nil || state.observedJobs.remove(completion.job) != nil
                guard changedTheRoot else { return }
                state.wanted = true
                state.onlyAsked = false
                // Until the new reading comes (seconds of apt's CPU), the last one with what
                // the job installed taken out: a row right as the job ends, marked recomputing.
                let ids = state.jobPackages.removeValue(forKey: completion.job) ?? []
                let installed = zip(ids, completion.result.updateResults)
                    .filter { $0.1.resultCode == .succeeded || $0.1.resultCode == .succeededWithErrors }.compactMap(\.0)
                if let snapshot = state.latest?.snapshot, !installed.isEmpty {
                    let assumed = snapshot.assuming(installed: Set(installed))
                    state.latest = (assumed, try? JSONParser.parse(PendingSnapshotCoding.encode(assumed)))
                }
            }
            startIfDue()
            tell()
        case .jobCleanedUp(let cleanUp):
            // A job declined or cleaned up before it ran changed nothing: forgotten, it holds
            // nothing back (a refresh among them).
            let (waiters, answer) = state.withLock { state -> ([@Sendable (PendingState) -> Void], PendingState) in
                state.packageJobs.remove(cleanUp.job)
                state.running.remove(cleanUp.job)
                state.refreshes.remove(cleanUp.job)
                state.observedJobs.remove(cleanUp.job)
                state.jobPackages.removeValue(forKey: cleanUp.job)
                return state.takeWaitersIfSettled()
            }
            for waiter in waiters { waiter(answer) }
            startIfDue()
            tell()
        default:
            break
        }
    }

    /// The updates of `descriptor` whose success takes their package out of what is pending
    /// (by id: the package, for apt's jobs and observed transactions), as `assuming` takes them:
    /// an install, an upgrade, a removal; not a downgrade, which makes a package pending rather
    /// than up to date.
    private static func installing(_ descriptor: JobDescriptor) -> [String?] {
        descriptor.updates.map { update in update.package?.isDowngrade == true ? nil : update.id }
    }

    // MARK: - Changes made by anyone

    /// Watches the root's folders, unless there is nothing to watch.
    private func startWatching() {
        let places: PackageStateWatcher.Places
        if let watching {
            places = watching
        } else if watchesTheRoot {
            do {
                places = PackageStateWatcher.Places(try APTEnvironment.resolve(aptConfig: aptConfig, cancellation: cancellation))
            } catch {
                if !cancellation.isCancelled { log("the root's package state is not watched: \(error.message)") }
                return
            }
        } else {
            return
        }
        do {
            let watcher = try PackageStateWatcher(places: places, polling: polling, note: log) { [weak self] change in self?.rootChanged(change) }
            let stopped = state.withLock { state -> Bool in
                if !state.stopped { state.watcher = watcher }
                return state.stopped
            }
            if stopped { watcher.stop() }
        } catch {
            log("the root's package state is not watched (its rows follow only this engine's jobs): \(error.description)")
        }
    }

    /// Someone changes the root, or has changed it and let go.
    private func rootChanged(_ change: PackageStateWatcher.Change) {
        state.withLock { state in
            switch change {
            case .changing:
                state.rootChanging = true
            case .settled(let lastChangeAt):
                state.rootChanging = false
                // Seen already by a computation that started after it.
                if state.lastStartedAt.map({ lastChangeAt >= $0 }) ?? true {
                    state.wanted = true
                    state.onlyAsked = false
                }
            }
        }
        startIfDue()
        tell()
    }

    /// Tells the observers the state when it differs from the one they heard last.
    private func tell() {
        telling.withLock { told in
            let (answer, observers) = state.withLock { ($0.answer, $0.observers) }
            guard answer != told, !observers.isEmpty else { return }
            told = answer
            for observer in observers { observer(answer) }
        }
    }

    // MARK: - Computing

    /// Starts a computation when one is wanted, none runs and no package job runs.
    private func startIfDue() {
        let due = state.withLock { state -> Bool in
            guard state.wanted, !state.computing, state.mayStart, !state.stopped else { return false }
            state.wanted = false
            state.computing = true
            state.overlapped = false
            return true
        }
        guard due else { return }
        // Told before the computation can end: a quick one would otherwise be over before the
        // caller's `tell()`, and its observers would never hear that a snapshot was coming.
        tell()
        work.enqueue { [self] in
            state.withLock { $0.lastStartedAt = .now }
            let snapshot = compute()
            let json = try? JSONParser.parse(PendingSnapshotCoding.encode(snapshot))
            let (waiters, settled) = state.withLock { state -> ([@Sendable (PendingState) -> Void], PendingState) in
                // A computation cut by `stop()` has no account of the root.
                if !state.stopped { state.latest = (snapshot, json) }
                state.computing = false
                // What was only asked for is answered; a computation owed since was not.
                if !state.wanted { state.onlyAsked = false }
                if state.overlapped {
                    state.wanted = true
                    state.onlyAsked = false
                }
                return state.takeWaitersIfSettled()
            }
            for waiter in waiters { waiter(settled) }
            startIfDue()
            tell()
        }
    }
}
