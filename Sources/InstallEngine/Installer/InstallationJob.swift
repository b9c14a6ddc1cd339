import Dispatch
import Foundation
import Synchronization

/// One running (or finished) installation or uninstallation of a list of updates
/// (WUA `IInstallationJob`). Created by `UpdateInstaller.beginInstall`/`beginUninstall`; it
/// starts at once and runs its updates one after another.
///
/// Every method may be called from any thread. Callbacks run on the installer's
/// `CallbackQueue`, in order and never concurrently (rule 8).
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
    private let callbackQueue: CallbackQueue
    private let configuration: EngineConfiguration
    private let state: Mutex<State>

    // MARK: - State

    private struct State {
        var results: [UpdateInstallationResult]
        var currentIndex = 0
        var currentPercent = 0.0
        var currentIsIndeterminate = true
        var currentMessage: String?
        var currentErrors: [String] = []
        var currentRebootReported = false
        var timedOut = false
        var running: (any RunningUpdate)?
        var graceTimer: Task<Void, Never>?
        var abortRequested = false
        var abortForced = false
        var stoppedByFailure = false
        var result: InstallationResult?
        var completionTicket: UInt64?
        var onProgress: InstallationProgressChangedCallback?
        var onCompleted: InstallationCompletedCallback?
        var resultWaiters: [@Sendable (InstallationResult) -> Void] = []
        var completionDeliveredWaiters: [@Sendable () -> Void] = []
        var malformedChannelLines = 0
        /// How many results are final; kept so a snapshot costs the same for 10,000 updates as for 1.
        var finishedCount = 0

        var isCompleted: Bool { result != nil }

        mutating func setResult(_ result: UpdateInstallationResult, at index: Int) {
            if results[index].resultCode.isFinal { finishedCount -= 1 }
            if result.resultCode.isFinal { finishedCount += 1 }
            results[index] = result
        }
    }

    /// At most this many `error` texts are kept per update; more are counted in the reason.
    private static let maximumKeptErrors = 100

    init(
        updates: [Update],
        operation: UpdateOperation,
        name: String,
        stopOnFailure: Bool,
        asyncState: (any Sendable)?,
        onProgress: InstallationProgressChangedCallback?,
        onCompleted: InstallationCompletedCallback?,
        installerID: ObjectIdentifier,
        callbackQueue: CallbackQueue,
        configuration: EngineConfiguration
    ) {
        self.updates = updates
        self.operation = operation
        self.name = name
        self.stopOnFailure = stopOnFailure
        self.asyncState = asyncState
        self.installerID = installerID
        self.callbackQueue = callbackQueue
        self.configuration = configuration
        var initial = State(results: Array(repeating: .notStarted, count: updates.count))
        initial.onProgress = onProgress
        initial.onCompleted = onCompleted
        state = Mutex(initial)
    }

    // MARK: - Public surface

    /// True once every update has its final result. Set before the completed callback runs
    /// (rule 9), so `endInstall` called inside it returns at once.
    public var isCompleted: Bool { state.withLock { $0.isCompleted } }

    /// The final result once the job has completed, `nil` before.
    public var result: InstallationResult? { state.withLock { $0.result } }

    /// An immutable snapshot of the job's progress (rule 5).
    public func progress() -> InstallationProgress {
        state.withLock { makeProgress($0) }
    }

    /// How many progress-channel lines of this job could not be understood (ignored).
    public var malformedChannelLines: Int { state.withLock { $0.malformedChannelLines } }

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
        enum Action { case none, terminate(any RunningUpdate, Duration), kill(any RunningUpdate) }
        var action = Action.none
        let mustDeliver = state.withLock { state -> Bool in
            guard !state.isCompleted, !state.abortForced else { return false }
            let escalate = state.abortRequested || force
            if !state.abortRequested {
                state.abortRequested = true
            }
            if escalate { state.abortForced = true }
            if let running = state.running {
                action = escalate ? .kill(running) : .terminate(running, abortGrace(for: state.currentIndex))
            }
            return enqueueLocked(&state, .abortRequested(force: escalate))
        }
        if mustDeliver { callbackQueue.deliverPending() }
        switch action {
        case .none:
            break
        case .kill(let running):
            running.kill()
        case .terminate(let running, let grace):
            running.terminate()
            scheduleGraceKill(running, after: grace)
        }
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
                Task.detached {
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
            if let result = state.result { return result }
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
        }
    }

    // MARK: - Running

    /// Runs the updates one after another and completes the job. Called once, by the installer.
    func run(on backend: any InstallBackend) async {
        for index in updates.indices {
            guard let startTicket = beginUpdate(at: index) else { break }
            // The update is announced (and, e.g., recorded in history) before its child exists.
            await callbackQueue.waitUntilDelivered(startTicket)
            await runUpdate(at: index, on: backend)
        }
        complete()
    }

    /// Marks update `index` as running, or returns `nil` when no further update may start.
    private func beginUpdate(at index: Int) -> UInt64? {
        var ticket: UInt64?
        let mustDeliver = state.withLock { state -> Bool in
            guard !state.abortRequested, !state.stoppedByFailure else { return false }
            state.currentIndex = index
            state.currentPercent = 0
            state.currentIsIndeterminate = true
            state.currentMessage = nil
            state.currentErrors = []
            state.currentRebootReported = false
            state.timedOut = false
            state.setResult(UpdateInstallationResult(resultCode: .inProgress, startedAt: Date()), at: index)
            let appended = appendLocked(&state, .updateStarted(index: index))
            ticket = appended.ticket
            return appended.mustDeliver
        }
        if mustDeliver { callbackQueue.deliverPending() }
        guard state.withLock({ $0.results[index].resultCode == .inProgress }) else { return nil }
        return ticket ?? 0
    }

    private func runUpdate(at index: Int, on backend: any InstallBackend) async {
        let update = updates[index]
        let startedAt = state.withLock { $0.results[index].startedAt ?? Date() }
        let markerBefore = RebootMarker(path: configuration.rebootMarkerPath)
        // begin validated that every update has a command for this operation.
        let command = update.command(for: operation) ?? .argv([])
        let request = UpdateRunRequest(update: update, operation: operation, command: command, jobName: name)
        let running = backend.start(request, reporter: JobUpdateReporter(job: self, index: index))

        let pendingAbort = state.withLock { state -> (requested: Bool, forced: Bool) in
            state.running = running
            return (state.abortRequested, state.abortForced)
        }
        // An abort requested between the start decision and now found no running update.
        if pendingAbort.forced {
            running.kill()
        } else if pendingAbort.requested {
            running.terminate()
            scheduleGraceKill(running, after: abortGrace(for: index))
        }
        let timeoutTimer = update.timeout.map { timeout in
            Task.detached { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil, let self else { return }
                let fire = self.state.withLock { state -> Bool in
                    guard state.running != nil, state.currentIndex == index else { return false }
                    if !state.abortRequested { state.timedOut = true }
                    return true
                }
                if fire { running.kill() }
            }
        }

        let outcome = await running.outcome
        timeoutTimer?.cancel()
        let markerChanged = RebootMarker(path: configuration.rebootMarkerPath).appearedOrChanged(since: markerBefore)

        let mustDeliver = state.withLock { state -> Bool in
            state.running = nil
            state.graceTimer?.cancel()
            state.graceTimer = nil
            let facts = UpdateResultClassifier.Facts(
                outcome: outcome, abortRequested: state.abortRequested, timedOut: state.timedOut,
                timeout: update.timeout, reportedErrors: state.currentErrors,
                rebootReported: state.currentRebootReported, rebootBehavior: update.rebootBehavior,
                rebootMarkerChanged: markerChanged, startedAt: startedAt, endedAt: Date())
            let result = UpdateResultClassifier.result(for: facts)
            state.setResult(result, at: index)
            if result.resultCode == .succeeded || result.resultCode == .succeededWithErrors {
                state.currentPercent = 100
            }
            if result.resultCode == .failed, stopOnFailure { state.stoppedByFailure = true }
            return enqueueLocked(&state, .updateCompleted(index: index))
        }
        if mustDeliver { callbackQueue.deliverPending() }
    }

    private func complete() {
        var resultWaiters: [@Sendable (InstallationResult) -> Void] = []
        var deliveredWaiters: [@Sendable () -> Void] = []
        var finalResult: InstallationResult?
        var completionTicket: UInt64 = 0
        let mustDeliver = state.withLock { state -> Bool in
            var mustDeliver = false
            let reason = state.abortRequested
                ? "not started: the job was aborted"
                : "not started: an earlier update failed and the job stops on failure"
            for index in state.results.indices where state.results[index].resultCode == .notStarted {
                state.setResult(UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled, reason: reason), at: index)
                mustDeliver = enqueueLocked(&state, .updateCompleted(index: index)) || mustDeliver
            }
            let result = InstallationResult.combining(state.results, abortRequested: state.abortRequested)
            state.result = result
            finalResult = result
            let onCompleted = state.onCompleted
            let appended = callbackQueue.append { [self] in onCompleted?(self) }
            completionTicket = appended.ticket
            state.completionTicket = appended.ticket
            resultWaiters = state.resultWaiters
            deliveredWaiters = state.completionDeliveredWaiters
            state.resultWaiters = []
            state.completionDeliveredWaiters = []
            return appended.mustDeliver || mustDeliver
        }
        if let finalResult {
            for waiter in resultWaiters { waiter(finalResult) }
        }
        for waiter in deliveredWaiters { callbackQueue.whenDelivered(completionTicket, waiter) }
        if mustDeliver { callbackQueue.deliverPending() }
    }

    // MARK: - Reports from the backend

    func receive(_ report: UpdateReport, fromUpdateAt index: Int) {
        let progressSource = updates[index].progressSource
        let mustDeliver = state.withLock { state -> Bool in
            guard state.currentIndex == index, state.results[index].resultCode == .inProgress else { return false }
            switch report {
            case .progress(let percent, let message):
                guard progressSource != .none || message != nil else { return false }
                return applyProgress(&state, percent: progressSource == .none ? nil : percent, message: message)
            case .message(let text):
                return applyProgress(&state, percent: nil, message: text)
            case .rebootRequired:
                state.currentRebootReported = true
                return false
            case .error(let text):
                if state.currentErrors.count < Self.maximumKeptErrors { state.currentErrors.append(text) }
                return false
            case .output(let stream, let line):
                var mustDeliver = enqueueLocked(&state, .output(index: index, stream: stream, line: line))
                if progressSource == .output, let percent = OutputPercentScanner.lastPercent(in: line) {
                    mustDeliver = applyProgress(&state, percent: percent, message: nil) || mustDeliver
                }
                return mustDeliver
            case .malformedChannelLine:
                state.malformedChannelLines += 1
                return false
            }
        }
        if mustDeliver { callbackQueue.deliverPending() }
    }

    /// Rule 6: the percentage never goes down; a report that changes nothing is not an event.
    private func applyProgress(_ state: inout State, percent: Double?, message: String?) -> Bool {
        var changed = false
        if let percent, percent.isFinite {
            let clamped = min(100, max(0, percent))
            if clamped > state.currentPercent || state.currentIsIndeterminate {
                state.currentPercent = max(state.currentPercent, clamped)
                state.currentIsIndeterminate = false
                changed = true
            }
        }
        if let message, message != state.currentMessage {
            state.currentMessage = message
            changed = true
        }
        guard changed else { return false }
        return enqueueLocked(&state, .progress(index: state.currentIndex))
    }

    // MARK: - Helpers

    /// Queues a progress callback for `change` while the state lock is held, so callbacks come
    /// in the order of the changes. Returns whether the caller must deliver after unlocking.
    private func enqueueLocked(_ state: inout State, _ change: JobChange) -> Bool {
        appendLocked(&state, change).mustDeliver
    }

    private func appendLocked(_ state: inout State, _ change: JobChange) -> (ticket: UInt64?, mustDeliver: Bool) {
        guard let onProgress = state.onProgress else { return (nil, false) }
        let args = InstallationProgressChangedArgs(progress: makeProgress(state), change: change)
        let appended = callbackQueue.append { [self] in onProgress(self, args) }
        return (appended.ticket, appended.mustDeliver)
    }

    /// Rule 6: every update weighs the same; the running one counts by its own percentage.
    /// `begin` refuses empty lists (rule 1), so there is always a current update.
    private func makeProgress(_ state: State) -> InstallationProgress {
        let currentCode = state.results[state.currentIndex].resultCode
        let finished = state.finishedCount
        let runningShare = currentCode == .inProgress ? state.currentPercent / 100 : 0
        return InstallationProgress(
            currentUpdateIndex: state.currentIndex,
            currentUpdatePercentComplete: currentCode == .notStarted ? 0 : state.currentPercent,
            percentComplete: 100 * (Double(finished) + runningShare) / Double(state.results.count),
            currentUpdateIsIndeterminate: state.currentIsIndeterminate,
            currentUpdateMessage: state.currentMessage,
            updateResults: state.results)
    }

    private func abortGrace(for index: Int) -> Duration {
        configuration.abortGraceOverride ?? updates[index].abortGrace
    }

    private func scheduleGraceKill(_ running: any RunningUpdate, after grace: Duration) {
        let timer = Task.detached {
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            running.kill()
        }
        state.withLock { state in
            state.graceTimer?.cancel()
            state.graceTimer = timer
        }
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product + attoseconds / 1_000_000_000
    }
}
