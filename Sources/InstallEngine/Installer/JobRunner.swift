#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import TextBasics

/// The one executor of a job and the one performer of its machine's actions.
///
/// Everything that changes the job (its start, its children's and its driver's reports, a
/// stop, a timer, a child's or the driver's end) is a `JobInput`, enqueued on the job's
/// executor (a `SerialWorkQueue` on the engine's pool) by whoever makes it, and performed there
/// in order, one at a time. For each input the `JobMachine` decides (under the job's lock, on
/// values); its actions are performed in one place: callbacks are queued on the callback queue
/// under the lock (so they keep the order of the changes, rule 8, and a `cleanUp` that
/// released them takes effect at once, rule 15); starting a child or the driver, signals and
/// stops happen after the lock is released, still on the executor and before its next input. A
/// stop therefore always finds what it stops (the start that made it was an earlier input),
/// and a kill meant for one update can never reach the next one.
///
/// Nothing waits here: a child's start waits for the delivery of its `updateStarted` through
/// `whenDelivered`, outcomes come back through `whenEnded`, timers through `EngineTimers`,
/// each as an input. Those two (a launch, a child's end) are performed by the thread that
/// delivers them when neither it nor the engine's pool has anything else to do and the
/// executor is idle (`submitRunningHere`), rather than handed to the pool.
final class JobRunner: Sendable {
    /// What runs now: the child of one update, or the job's driver.
    fileprivate enum Running: Sendable {
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

    /// What an input leaves to do once the lock is released, in order.
    fileprivate enum Effect {
        /// Start update `index`'s child once the callback with `ticket` has been delivered.
        case launch(index: Int, afterTicket: UInt64)
        case startDriver
        /// Stop what runs when the effect is performed: a driver that an earlier effect of the
        /// same input started (an abort before the start of a driver that runs already) too.
        case terminate
        case kill
        /// The job completed: wake those waiting for its result and for the completed
        /// callback's delivery (ticket).
        case completed(InstallationResult, ticket: UInt64, waiters: [@Sendable (InstallationResult) -> Void],
                       deliveredWaiters: [@Sendable () -> Void])
    }

    struct State {
        /// The rules; everything else here is the runner's plumbing.
        var machine: JobMachine
        fileprivate var running: Running?
        fileprivate var timers: [JobTimer: EngineTimers.Token] = [:]
        var callbacks: CallbackBatch
        /// The job, held from its start until it completes: the callbacks are called with it,
        /// and a running job lives on whoever else lets it go.
        fileprivate var job: InstallationJob?
        var resultWaiters: [@Sendable (InstallationResult) -> Void] = []
        var completionDeliveredWaiters: [@Sendable () -> Void] = []
    }

    let state: Mutex<State>
    let callbackQueue: SerialWorkQueue
    /// The job's own, or the one its driver's jobs share (`ExecutorSharingDriver`).
    private let executor: SerialWorkQueue
    /// Whether an input may join the batch of inputs queued before it: only on an executor of
    /// its own (on a shared one, joining would move it ahead of another job's later input).
    private let joinsInputs: Bool
    /// The inputs queued last, which later ones join while their item has not started.
    private let openInputs = Mutex<SerialWorkBatch<JobInput>?>(nil)
    private let updates: [Update]
    private let operation: UpdateOperation
    private let name: String
    private let configuration: EngineConfiguration
    private let backend: any InstallBackend
    /// Runs the whole job when set (rules 21–25); otherwise `backend` runs one child per update.
    private let driver: (any JobDriver)?

    init(machine: JobMachine, callbacks: CallbackBatch, callbackQueue: SerialWorkQueue, updates: [Update],
         operation: UpdateOperation, name: String, configuration: EngineConfiguration, backend: any InstallBackend,
         driver: (any JobDriver)?) {
        state = Mutex(State(machine: machine, callbacks: callbacks))
        self.callbackQueue = callbackQueue
        self.updates = updates
        self.operation = operation
        self.name = name
        self.configuration = configuration
        self.backend = backend
        self.driver = driver
        if let sharing = driver as? any ExecutorSharingDriver {
            executor = sharing.sharedExecutor
            joinsInputs = false
        } else {
            executor = SerialWorkQueue()
            joinsInputs = true
        }
    }

    /// Starts `job`, whose runner this is. Called once.
    func start(_ job: InstallationJob) {
        state.withLock { $0.job = job }
        submit(.start)
    }

    /// Inputs not performed yet plus callbacks not delivered yet (the callback queue is the
    /// installer's: another job's flood counts too, as it holds up this job's callbacks).
    var backlog: Int { executor.backlog + callbackQueue.backlog }

    /// Enqueues `input` on the job's executor; returns at once. Any thread may call it, with
    /// its own locks held: it only appends.
    func submit(_ input: JobInput) {
        openInputs.withLock { open in
            if !joinsInputs { open = nil }
            _ = executor.enqueue(CollectionOfOne(input), joining: &open) { [self] inputs in performBatch(inputs) }
        }
    }

    /// Enqueues `input` as `submit` does, and when handing it on would only wake a pool thread
    /// while the calling thread goes to sleep, performs it here, now, for one turn (what it
    /// leads to goes to the engine's pool): when the calling thread has nothing else waiting
    /// (`CallingThread.hasNothingWaiting`), the pool is asleep and the executor idle. For the
    /// two inputs on the path from one update to the next: a child's end (on the poller's
    /// thread, which settles it) and a launch (on the callback queue's thread, once the
    /// `updateStarted` is delivered). The job's order is the executor's either way. When the
    /// calling thread has other work (a thousand children ending, a thousand jobs' callbacks)
    /// or the pool is awake, the input is handed on and runs beside that work: a thousand jobs
    /// starting at once spawn their children on the pool's threads, side by side. The caller
    /// holds none of its locks.
    private func submitRunningHere(_ input: JobInput) {
        guard CallingThread.hasNothingWaiting, executor.runnerIsAsleep else { return submit(input) }
        let runsHere = openInputs.withLock { open in
            if !joinsInputs { open = nil }
            return executor.enqueueToRunHere(CollectionOfOne(input), joining: &open) { [self] inputs in performBatch(inputs) }
        }
        if runsHere { executor.runHere(untilEmpty: false) }
    }

    /// Performs a batch of inputs on the executor, then queues the progress callbacks for
    /// everything the batch changed, in one hand-over.
    private func performBatch(_ inputs: [JobInput]) {
        for input in inputs { perform(input) }
        state.withLock { state in
            if let job = state.job { state.callbacks.queue(for: job, on: callbackQueue) }
        }
    }

    /// Forgets the job's callbacks (`cleanUp`, rule 15): none is queued after this returns.
    func releaseCallbacks() {
        state.withLock { state in
            state.callbacks.release()
            state.machine.reportsProgress = false
        }
    }

    // MARK: - Performing inputs (on the executor)

    private func perform(_ input: JobInput) {
        switch input {
        case .start:
            let now = Date()
            feed { $0.machine.start(now: now) }
        case .report(let report, let index):
            feed { $0.machine.receive(report, fromUpdateAt: index) }
        case .driverReports(let reports):
            let now = Date()
            feed(applying: { state, effects in
                // One buffer for every report's few actions: a flood of apt's lines is
                // thousands of reports, and one array of all their actions was most of its memory.
                var actions: [JobAction] = []
                for report in reports {
                    state.machine.driverReported(report, now: now, into: &actions)
                    apply(actions, to: &state, effects: &effects)
                    actions.removeAll(keepingCapacity: true)
                }
            })
        case .abort(let force):
            feed { $0.machine.requestAbort(force: force) }
        case .launch(let index):
            launch(index)
        case .updateEnded(let index, let outcome, let markerBefore):
            let markerChanged = FileFingerprint(path: configuration.rebootMarkerPath).appearedOrChanged(since: markerBefore)
            let now = Date()
            feed { state in
                state.running = nil
                return state.machine.updateEnded(at: index, outcome: outcome, rebootMarkerChanged: markerChanged, now: now)
            }
        case .driverEnded(let outcome):
            let now = Date()
            feed { state in
                state.running = nil
                return state.machine.driverEnded(outcome: outcome, now: now)
            }
        case .timerFired(let timer):
            feed { $0.machine.timerFired(timer) }
        }
    }

    /// Starts update `index`'s child (its `updateStarted` has been delivered: the update is
    /// announced, and recorded in history, before its child exists) and asks for its end.
    private func launch(_ index: Int) {
        let update = updates[index]
        let markerBefore = FileFingerprint(path: configuration.rebootMarkerPath)
        // begin validated that every update has a command for this operation.
        let command = update.command(for: operation) ?? .argv([])
        let request = UpdateRunRequest(update: update, operation: operation, command: command, jobName: name)
        let running = backend.start(request, reporter: JobUpdateReporter(runner: self, index: index))
        feed { state in
            state.running = .child(running)
            return state.machine.updateLaunched(at: index)
        }
        running.whenEnded { [self] outcome in
            submitRunningHere(.updateEnded(index: index, outcome: outcome, markerBefore: markerBefore))
        }
    }

    /// Starts the job's driver and asks for its end.
    private func startDriver() {
        guard let driver else { preconditionFailure("a driver job without a driver") }
        let request = DriverRunRequest(updates: updates, operation: operation, jobName: name)
        let running = driver.start(request, reporter: JobDriverReporter(runner: self))
        state.withLock { $0.running = .driver(running) }
        running.whenEnded { [self] outcome in submit(.driverEnded(outcome)) }
    }

    /// Feeds one input to the machine under the lock; `input` returns its actions.
    private func feed(_ input: (inout State) -> [JobAction]) {
        feed(applying: { state, effects in apply(input(&state), to: &state, effects: &effects) })
    }

    /// Feeds one input to the machine under the lock, where `input` applies its actions
    /// (`apply`); then performs what they left to do, with the lock released.
    private func feed(applying input: (inout State, inout [Effect]) -> Void) {
        var effects: [Effect] = []
        state.withLock { state in
            input(&state, &effects)
            // The next input's progress never takes the place of this one's.
            state.callbacks.interrupt()
        }
        for effect in effects { perform(effect) }
    }

    /// Applies the machine's `actions` in order, under the lock: callbacks are queued and timers
    /// set here; the rest is left to `perform(_:)` as effects.
    private func apply(_ actions: [JobAction], to state: inout State, effects: inout [Effect]) {
        for action in actions {
            if case .notify(let args) = action {
                if let job = state.job { state.callbacks.add(args, of: job, on: callbackQueue) }
                continue
            }
            state.callbacks.interrupt()
            switch action {
            case .notify:
                break
            case .startUpdate(let index):
                // After every callback so far: the child starts once they are delivered.
                if let job = state.job { state.callbacks.queue(for: job, on: callbackQueue) }
                effects.append(.launch(index: index, afterTicket: state.callbacks.lastTicket))
            case .startDriver:
                effects.append(.startDriver)
            case .terminate:
                // Something runs whenever the machine asks to stop it: an earlier input or
                // effect started it.
                effects.append(.terminate)
            case .kill:
                effects.append(.kill)
            case .schedule(let timer, let delay):
                if let earlier = state.timers[timer] { EngineTimers.shared.cancel(earlier) }
                state.timers[timer] = EngineTimers.shared.schedule(after: delay) { [weak self] in
                    self?.submit(.timerFired(timer))
                }
            case .cancel(let timer):
                if let token = state.timers.removeValue(forKey: timer) { EngineTimers.shared.cancel(token) }
            case .complete(let result):
                guard let job = state.job else { continue }
                let ticket = state.callbacks.queueCompletion(of: job, on: callbackQueue)
                effects.append(.completed(result, ticket: ticket, waiters: state.resultWaiters,
                                          deliveredWaiters: state.completionDeliveredWaiters))
                state.resultWaiters = []
                state.completionDeliveredWaiters = []
                for token in state.timers.values { EngineTimers.shared.cancel(token) }
                state.timers = [:]
                // The queued callbacks hold it from here; nothing refers back to the runner.
                state.job = nil
            }
        }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .launch(let index, let ticket):
            callbackQueue.whenDelivered(ticket) { [self] in submitRunningHere(.launch(index: index)) }
        case .startDriver:
            startDriver()
        case .terminate:
            state.withLock { $0.running }?.terminate()
        case .kill:
            state.withLock { $0.running }?.kill()
        case .completed(let result, let ticket, let waiters, let deliveredWaiters):
            for waiter in waiters { waiter(result) }
            for waiter in deliveredWaiters { callbackQueue.whenDelivered(ticket, waiter) }
        }
    }
}
