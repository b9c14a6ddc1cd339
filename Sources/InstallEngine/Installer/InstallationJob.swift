import Dispatch
import Foundation
import Synchronization

/// One running (or finished) installation or uninstallation of a list of updates
/// (WUA `IInstallationJob`). Created by `UpdateInstaller.beginInstall`/`beginUninstall`; it
/// starts at once and runs its updates one after another.
///
/// Every method may be called from any thread. Callbacks run on the installer's
/// `SerialWorkQueue`, in order and never concurrently (rule 8).
public final class InstallationJob: Sendable {
    // MARK: - Identity

    /// The caller's value from `beginInstall(state:)` (WUA `AsyncState`).
    public let asyncState: (any Sendable)?
    /// The snapshot of the update list taken at begin time (rule 4).
    public let updates: [Update]
    public let operation: UpdateOperation
    /// Passed to children as `INSTALLTOP_JOB`.
    public let name: String
    /// Rule 18.
    public let stopOnFailure: Bool

    let installerID: ObjectIdentifier
    private let callbackQueue: SerialWorkQueue
    /// Performs the job's signals and stops, in the order the machine asked for them, off the
    /// thread that asked.
    private let executor = SerialWorkQueue()
    private let configuration: EngineConfiguration
    private let backend: any InstallBackend
    /// Runs the whole job when set (rules 21–25); otherwise `backend` runs one child per update.
    private let driver: (any JobDriver)?
    private let clock: any Clock<Duration>
    private let state: Mutex<State>

    // MARK: - State

    /// What runs now: the child of one update, or the job's driver.
    private enum Running: Sendable {
        case child(any RunningUpdate)
        case driver(any RunningDriver)

        func terminate() {
            switch self {
            case .child(let child): child.terminate()
            case .driver(let driver): driver.stopAtSafePoint()
            }
        }

        func kill() {
            switch self {
            case .child(let child): child.kill()
            case .driver(let driver): driver.kill()
            }
        }
    }

    /// A start the machine asked for, made once the lock is released.
    private enum Launch {
        case update(index: Int, afterTicket: UInt64)
        case driver
    }

    private struct State {
        /// The rules; everything else here is the runner's plumbing.
        var machine: JobMachine
        var running: Running?
        /// A stop asked for while nothing was running yet; applied when it starts.
        var pendingStop: JobAction?
        var timers: [JobTimer: Task<Void, Never>] = [:]
        /// The ticket of the last progress callback queued, so a child starts only after its
        /// `updateStarted` has been delivered.
        var lastTicket: UInt64 = 0
        /// The progress callbacks queued last, which later ones join while their item is the
        /// callback queue's last and has not started.
        var openBatch: SerialWorkBatch<InstallationProgressChangedArgs>?
        /// Progress callbacks not queued yet, in order, up to `notificationsQueuedAtOnce`;
        /// queued before the lock is released. Kept here so its storage serves every send.
        var notifications: [InstallationProgressChangedArgs] = []
        /// Whether the last of `notifications` came directly before what is performed next,
        /// so that a later snapshot of the same update may take its place.
        var lastNotificationIsReplaceable = false
        var completionTicket: UInt64?
        var onProgress: InstallationProgressChangedCallback?
        var onCompleted: InstallationCompletedCallback?
        var resultWaiters: [@Sendable (InstallationResult) -> Void] = []
        var completionDeliveredWaiters: [@Sendable () -> Void] = []
    }

    init(
        updates: [Update],
        operation: UpdateOperation,
        name: String,
        stopOnFailure: Bool,
        asyncState: (any Sendable)?,
        onProgress: InstallationProgressChangedCallback?,
        onCompleted: InstallationCompletedCallback?,
        installerID: ObjectIdentifier,
        callbackQueue: SerialWorkQueue,
        configuration: EngineConfiguration,
        backend: any InstallBackend,
        driver: (any JobDriver)?,
        clock: any Clock<Duration>
    ) {
        self.updates = updates
        self.operation = operation
        self.name = name
        self.stopOnFailure = stopOnFailure
        self.asyncState = asyncState
        self.installerID = installerID
        self.callbackQueue = callbackQueue
        self.configuration = configuration
        self.backend = backend
        self.driver = driver
        self.clock = clock
        let machine = JobMachine(
            updates: updates, mode: driver == nil ? .childPerUpdate : .driver, stopOnFailure: stopOnFailure,
            abortGraceOverride: configuration.abortGraceOverride, reportsProgress: onProgress != nil,
            acceptsAddedUpdates: driver?.addsUpdates ?? false, driverRunsAlready: driver?.runsAlready ?? false)
        var initial = State(machine: machine)
        initial.onProgress = onProgress
        initial.onCompleted = onCompleted
        state = Mutex(initial)
    }

    // MARK: - Public surface

    /// True once every update has its final result. Set before the completed callback runs
    /// (rule 9), so `endInstall` called inside it returns at once.
    public var isCompleted: Bool { state.withLock { $0.machine.isCompleted } }

    /// The final result once the job has completed, `nil` before.
    public var result: InstallationResult? { state.withLock { $0.machine.result } }

    /// An immutable snapshot of the job's progress (rule 5).
    public func progress() -> InstallationProgress {
        state.withLock { $0.machine.progress() }
    }

    /// How many progress-channel lines of this job could not be understood (ignored).
    public var malformedChannelLines: Int { state.withLock { $0.machine.malformedChannelLines } }
    /// Lines of its driver's tool that never reached the driver (`JobMachine.droppedLines`).
    public var droppedLines: Int { state.withLock { $0.machine.droppedLines } }

    /// How many driver reports were about an update outside the plan or out of its lifecycle
    /// (ignored, rule 22).
    public var driverProtocolErrors: Int { state.withLock { $0.machine.driverProtocolErrors } }

    /// Asks the job to stop (WUA `RequestAbort`); returns at once.
    ///
    /// The first request lets no further update start and sends SIGTERM to the running
    /// update's process group, then SIGKILL after its abort grace (rule 11). A second request
    /// while the job is still aborting escalates to SIGKILL at once (rule 12); later ones are
    /// no-ops. On a completed job it does nothing (rule 13).
    public func requestAbort() {
        requestAbort(force: false)
    }

    /// Like `requestAbort()`; with `force` the running update is killed at once.
    public func requestAbort(force: Bool) {
        send { $0.machine.requestAbort(force: force) }
    }

    /// Waits for the job to complete, then releases its callbacks (WUA `CleanUp`, rule 15):
    /// after it returns no callback of this job fires. Idempotent.
    ///
    /// This blocks the calling thread; from async code the `async` overload is chosen.
    /// - Parameter timeout: how long to wait at most; `nil` waits as long as it takes.
    /// - Throws: `invalidOperation` when called from inside a callback (waiting there would
    ///   deadlock); `timedOut` when the job did not complete in time (nothing is released).
    public func cleanUp(timeout: Duration? = nil) throws(InstallerError) {
        if callbackQueue.isDeliveringOnCurrentThread {
            throw .invalidOperation("cleanUp cannot wait for the job from inside one of its callbacks")
        }
        let semaphore = DispatchSemaphore(value: 0)
        whenCompletionDelivered { semaphore.signal() }
        if let timeout {
            let deadline = DispatchTime.now() + .nanoseconds(Int(timeout.nanoseconds))
            guard semaphore.wait(timeout: deadline) == .success else { throw .timedOut }
        } else {
            semaphore.wait()
        }
        releaseCallbacks()
    }

    /// Waits without blocking a thread for the job to complete, then releases its callbacks.
    /// See the synchronous `cleanUp(timeout:)`.
    public func cleanUp(timeout: Duration? = nil) async throws(InstallerError) {
        if callbackQueue.isDeliveringOnCurrentThread {
            throw .invalidOperation("cleanUp cannot wait for the job from inside one of its callbacks")
        }
        let once = Mutex<CheckedContinuation<Bool, Never>?>(nil)
        let delivered = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            once.withLock { $0 = continuation }
            let finish: @Sendable (Bool) -> Void = { value in
                once.withLock { pending in
                    pending?.resume(returning: value)
                    pending = nil
                }
            }
            whenCompletionDelivered { finish(true) }
            if let timeout {
                Task.detached(executorPreference: EngineTaskExecutor.shared) {
                    try? await Task.sleep(for: timeout)
                    finish(false)
                }
            }
        }
        guard delivered else { throw .timedOut }
        releaseCallbacks()
    }

    // MARK: - Waiting

    /// Calls `resume` with the result once the job has completed (at once if it has).
    func whenCompleted(_ resume: @escaping @Sendable (InstallationResult) -> Void) {
        let result = state.withLock { state -> InstallationResult? in
            if let result = state.machine.result { return result }
            state.resultWaiters.append(resume)
            return nil
        }
        if let result { resume(result) }
    }

    /// The result, once the job has completed.
    func waitForResult() async -> InstallationResult {
        await withCheckedContinuation { continuation in
            whenCompleted { continuation.resume(returning: $0) }
        }
    }

    private func whenCompletionDelivered(_ resume: @escaping @Sendable () -> Void) {
        let ticket = state.withLock { state -> UInt64? in
            if let ticket = state.completionTicket { return ticket }
            state.completionDeliveredWaiters.append(resume)
            return nil
        }
        if let ticket { callbackQueue.whenDelivered(ticket, resume) }
    }

    private func releaseCallbacks() {
        state.withLock { state in
            state.onProgress = nil
            state.onCompleted = nil
            state.machine.reportsProgress = false
        }
    }

    // MARK: - Running

    /// Starts the job. Called once, by the installer.
    func start() {
        send { $0.machine.start(now: Date()) }
    }

    /// A report from the child of update `index`.
    func receive(_ report: UpdateReport, fromUpdateAt index: Int) {
        send { $0.machine.receive(report, fromUpdateAt: index) }
    }

    /// Reports from the job's driver, made together: applied in one step, each report's actions
    /// performed as they come, so a progress callback that the next one of the same update
    /// supersedes is not delivered (see `send`).
    func receive(_ reports: [DriverReport]) {
        let now = Date()
        send { state, performance in
            // One buffer for every report's few actions: a flood of apt's lines is thousands
            // of reports, and one array of all their actions was most of its memory.
            var actions: [JobAction] = []
            for report in reports {
                state.machine.driverReported(report, now: now, into: &actions)
                perform(actions, on: &state, into: &performance)
                actions.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Starts the child of update `index` once its start has been delivered, and reports its
    /// end; then does the same for the update the machine starts next, in the same task, so
    /// one child follows another without a hand-over to a new task.
    private func launch(at index: Int, afterTicket ticket: UInt64) async {
        var next: (index: Int, ticket: UInt64)? = (index, ticket)
        while let (index, ticket) = next {
            // The update is announced (and, e.g., recorded in history) before its child exists.
            await callbackQueue.waitUntilDelivered(ticket)
            let update = updates[index]
            let markerBefore = RebootMarker(path: configuration.rebootMarkerPath)
            // begin validated that every update has a command for this operation.
            let command = update.command(for: operation) ?? .argv([])
            let request = UpdateRunRequest(update: update, operation: operation, command: command, jobName: name)
            let running = backend.start(request, reporter: JobUpdateReporter(job: self, index: index))
            send { state in
                state.running = .child(running)
                return state.machine.updateLaunched(at: index)
            }
            let outcome = await running.outcome
            let markerChanged = RebootMarker(path: configuration.rebootMarkerPath).appearedOrChanged(since: markerBefore)
            let now = Date()
            next = send(keepingLaunch: true) { state in
                state.running = nil
                return state.machine.updateEnded(at: index, outcome: outcome, rebootMarkerChanged: markerChanged, now: now)
            }
        }
    }

    /// Starts the job's driver and reports its end.
    private func launchDriver() async {
        guard let driver else { preconditionFailure("a driver job without a driver") }
        let request = DriverRunRequest(updates: updates, operation: operation, jobName: name)
        let running = driver.start(request, reporter: JobDriverReporter(job: self))
        send { state in
            state.running = .driver(running)
            return []
        }
        driverEnded(await running.outcome)
    }

    /// The job's driver ended: from `launchDriver` once its outcome came, or earlier from its
    /// reporter, so the job completes in order with what the driver reports next. The later
    /// of the two changes nothing (the machine has left the driver phase).
    func driverEnded(_ outcome: UpdateRunOutcome) {
        let now = Date()
        send { state in
            state.running = nil
            return state.machine.driverEnded(outcome: outcome, now: now)
        }
    }

    // MARK: - Performing the machine's actions

    /// What performing the machine's actions under the lock leaves to do after it is
    /// released: the starts and the completion's waiters.
    private struct Performance {
        var launches: [Launch] = []
        var completed: (result: InstallationResult, ticket: UInt64,
                        waiters: [@Sendable (InstallationResult) -> Void], delivered: [@Sendable () -> Void])?
    }

    /// How many progress callbacks are queued at once: one turn of the callback queue's lock
    /// for so many, not one for each, and a flood's never wait in one long array here (512
    /// cost less CPU than 64 in the apt-status-stream benchmark).
    private static let notificationsQueuedAtOnce = 512

    /// Feeds one input to the machine under the lock and performs the actions it returns.
    @discardableResult
    private func send(keepingLaunch: Bool = false, _ input: (inout State) -> [JobAction]) -> (index: Int, ticket: UInt64)? {
        send(keepingLaunch: keepingLaunch) { state, performance in
            perform(input(&state), on: &state, into: &performance)
        }
    }

    /// Feeds inputs to the machine under the lock; `input` performs their actions with
    /// `perform`. Under the lock everything is only enqueued, callbacks on the callback queue
    /// (so they come in the order of the changes, rule 8) and signals and stops on the job's
    /// executor (so a stop never runs on the thread that asked for it, a key press in the
    /// monitor included); starts happen after it is released. Nothing is called out while it
    /// is held. With `keepingLaunch`, a child's start is returned for the caller to perform
    /// instead of being given a task of its own.
    ///
    /// A progress callback directly followed by another about the same update in one send, with
    /// the same status texts, is not delivered: the later snapshot carries everything the
    /// earlier one said (the percents as they stand, the same texts); every text an update or
    /// the job shows is still delivered. Such inputs are a driver's reports made together,
    /// from one line of its tool (a package's percent, then the job's figure) or from lines
    /// that came while the job was still busy with earlier ones: a consumer that is behind
    /// gets the latest figures, as the JSON events' coalescing and the monitor's mailbox
    /// already give it.
    @discardableResult
    private func send(
        keepingLaunch: Bool = false, _ input: (inout State, inout Performance) -> Void
    ) -> (index: Int, ticket: UInt64)? {
        var performance = Performance()
        state.withLock { state in
            input(&state, &performance)
            // The rare stop last: testing `running` copies it, on every event.
            if let pending = state.pendingStop, state.running != nil {
                state.pendingStop = nil
                perform([pending], on: &state, into: &performance)
            }
            queueNotifications(on: &state)
        }
        if let completed = performance.completed {
            for waiter in completed.waiters { waiter(completed.result) }
            for waiter in completed.delivered { callbackQueue.whenDelivered(completed.ticket, waiter) }
        }
        var kept: (index: Int, ticket: UInt64)?
        for launch in performance.launches {
            switch launch {
            case .update(let index, let ticket) where keepingLaunch && kept == nil:
                kept = (index, ticket)
            case .update(let index, let ticket):
                Task.detached(executorPreference: EngineTaskExecutor.shared) { await self.launch(at: index, afterTicket: ticket) }
            case .driver:
                Task.detached(executorPreference: EngineTaskExecutor.shared) { await self.launchDriver() }
            }
        }
        return kept
    }

    /// Performs `actions` in order, under the lock (see `send`).
    private func perform(_ actions: [JobAction], on state: inout State, into performance: inout Performance) {
        for action in actions {
            if case .notify(let args) = action {
                guard state.onProgress != nil else { continue }
                if state.lastNotificationIsReplaceable, let last = state.notifications.last, Self.supersedes(args, last) {
                    state.notifications[state.notifications.count - 1] = args
                } else {
                    if state.notifications.count >= Self.notificationsQueuedAtOnce { queueNotifications(on: &state) }
                    state.notifications.append(args)
                }
                state.lastNotificationIsReplaceable = true
                continue
            }
            // What comes after this action is no longer directly after the last callback.
            state.lastNotificationIsReplaceable = false
            switch action {
            case .notify:
                break
            case .startUpdate(let index):
                // After every callback so far: the child starts once they are delivered.
                queueNotifications(on: &state)
                performance.launches.append(.update(index: index, afterTicket: state.lastTicket))
            case .startDriver:
                performance.launches.append(.driver)
            case .terminate, .kill:
                guard let running = state.running else {
                    // Nothing to signal yet (a driver still being started): apply it then,
                    // a kill winning over a terminate.
                    if case .kill = action { state.pendingStop = .kill } else if state.pendingStop == nil { state.pendingStop = .terminate }
                    continue
                }
                // The target is resolved here, under the lock, so a kill meant for one
                // update can never reach the next one.
                if case .kill = action {
                    executor.enqueue { running.kill() }
                } else {
                    executor.enqueue { running.terminate() }
                }
            case .schedule(let timer, let delay):
                state.timers[timer]?.cancel()
                state.timers[timer] = Task.detached(executorPreference: EngineTaskExecutor.shared) { [weak self, clock] in
                    guard (try? await clock.sleep(for: delay)) != nil, let self else { return }
                    self.send { $0.machine.timerFired(timer) }
                }
            case .cancel(let timer):
                state.timers.removeValue(forKey: timer)?.cancel()
            case .complete(let result):
                // The completed callback comes after every progress callback (rule 9).
                queueNotifications(on: &state)
                // No callback comes after it: the buffer of a flood's callbacks goes too.
                state.notifications = []
                let onCompleted = state.onCompleted
                let ticket = callbackQueue.enqueue { [self] in onCompleted?(self) }
                state.openBatch = nil
                state.completionTicket = ticket
                performance.completed = (result, ticket, state.resultWaiters, state.completionDeliveredWaiters)
                state.resultWaiters = []
                state.completionDeliveredWaiters = []
                for timer in state.timers.values { timer.cancel() }
                state.timers = [:]
            }
        }
    }

    /// Whether `later`, an update's progress, makes `earlier` about the same update, with
    /// the same texts, needless (only figures changed).
    private static func supersedes(_ later: InstallationProgressChangedArgs, _ earlier: InstallationProgressChangedArgs) -> Bool {
        guard case .progress(let index) = earlier.change, case .progress(index) = later.change else { return false }
        return later.progress.currentUpdateMessage == earlier.progress.currentUpdateMessage
            && later.progress.jobMessage == earlier.progress.jobMessage
    }

    /// Queues the progress callbacks collected so far behind everything queued, in a batch
    /// with the job's callbacks just before them when nothing came between. Called under the
    /// lock.
    private func queueNotifications(on state: inout State) {
        guard !state.notifications.isEmpty else { return }
        defer {
            state.notifications.removeAll(keepingCapacity: true)
            state.lastNotificationIsReplaceable = false
        }
        // Collected only while there is a callback to call.
        guard let onProgress = state.onProgress else { return }
        state.lastTicket = callbackQueue.enqueue(state.notifications, joining: &state.openBatch) { [self] batch in
            for args in batch { onProgress(self, args) }
        }
    }
}
