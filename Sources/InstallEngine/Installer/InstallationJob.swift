import Dispatch
import Synchronization

/// One running (or finished) installation or uninstallation of a list of updates
/// (WUA `IInstallationJob`). Created by `UpdateInstaller.beginInstall`/`beginUninstall`; it
/// starts at once and runs its updates one after another.
///
/// Every method may be called from any thread and returns at once (except the waits). What
/// changes the job runs on its one executor (`JobRunner`); callbacks run on the installer's
/// callback queue, in order and never concurrently (rule 8).
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
    private let runner: JobRunner

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
        driver: (any JobDriver)?
    ) {
        self.updates = updates
        self.operation = operation
        self.name = name
        self.stopOnFailure = stopOnFailure
        self.asyncState = asyncState
        self.installerID = installerID
        let machine = JobMachine(
            updates: updates, mode: driver == nil ? .childPerUpdate : .driver, stopOnFailure: stopOnFailure,
            abortGraceOverride: configuration.abortGraceOverride, reportsProgress: onProgress != nil,
            acceptsAddedUpdates: driver?.addsUpdates ?? false, driverRunsAlready: driver?.runsAlready ?? false,
            driverStoppedAlready: driver?.stopRequestedAlready ?? false)
        runner = JobRunner(
            machine: machine, callbacks: CallbackBatch(onProgress: onProgress, onCompleted: onCompleted),
            callbackQueue: callbackQueue, updates: updates, operation: operation, name: name,
            configuration: configuration, backend: backend, driver: driver)
    }

    // MARK: - Public surface

    /// True once every update has its final result. Set before the completed callback runs
    /// (rule 9), so `endInstall` called inside it returns at once.
    public var isCompleted: Bool { runner.state.withLock { $0.machine.isCompleted } }

    /// The final result once the job has completed, `nil` before.
    public var result: InstallationResult? { runner.state.withLock { $0.machine.result } }

    /// An immutable snapshot of the job's progress (rule 5).
    public func progress() -> InstallationProgress {
        runner.state.withLock { $0.machine.progress() }
    }

    /// How many progress-channel lines of this job could not be understood (ignored).
    public var malformedChannelLines: Int { runner.state.withLock { $0.machine.malformedChannelLines } }
    /// Lines of its driver's tool that never reached the driver (`JobMachine.droppedLines`).
    public var droppedLines: Int { runner.state.withLock { $0.machine.droppedLines } }

    /// How many driver reports were about an update outside the plan or out of its lifecycle
    /// (ignored, rule 22).
    public var driverProtocolErrors: Int { runner.state.withLock { $0.machine.driverProtocolErrors } }

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
        runner.submit(.abort(force: force))
    }

    /// Waits for the job to complete, then releases its callbacks (WUA `CleanUp`, rule 15):
    /// after it returns no callback of this job fires. Idempotent.
    ///
    /// This blocks the calling thread; from async code the `async` overload is chosen.
    /// - Parameter timeout: how long to wait at most; `nil` waits as long as it takes.
    /// - Throws: `invalidOperation` when called from inside a callback (waiting there would
    ///   deadlock); `timedOut` when the job did not complete in time (nothing is released).
    public func cleanUp(timeout: Duration? = nil) throws(InstallerError) {
        if runner.callbackQueue.isDeliveringOnCurrentThread {
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
        runner.releaseCallbacks()
    }

    /// Waits without blocking a thread for the job to complete, then releases its callbacks.
    /// See the synchronous `cleanUp(timeout:)`.
    public func cleanUp(timeout: Duration? = nil) async throws(InstallerError) {
        if runner.callbackQueue.isDeliveringOnCurrentThread {
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
            if let timeout {
                let timer = EngineTimers.shared.schedule(after: timeout) { finish(false) }
                whenCompletionDelivered {
                    EngineTimers.shared.cancel(timer)
                    finish(true)
                }
            } else {
                whenCompletionDelivered { finish(true) }
            }
        }
        guard delivered else { throw .timedOut }
        runner.releaseCallbacks()
    }

    // MARK: - Waiting

    /// Calls `resume` with the result once the job has completed (at once if it has).
    func whenCompleted(_ resume: @escaping @Sendable (InstallationResult) -> Void) {
        let result = runner.state.withLock { state -> InstallationResult? in
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

    /// Calls `resume` once the job's completed callback has been delivered (its
    /// `jobCompleted` event published), at once if it has been.
    func whenCompletionDelivered(_ resume: @escaping @Sendable () -> Void) {
        let ticket = runner.state.withLock { state -> UInt64? in
            if let ticket = state.callbacks.completionTicket { return ticket }
            state.completionDeliveredWaiters.append(resume)
            return nil
        }
        if let ticket { runner.callbackQueue.whenDelivered(ticket, resume) }
    }

    /// Releases the callbacks of a job whose completion was delivered (the queue's clean-up).
    func releaseCallbacks() {
        runner.releaseCallbacks()
    }

    // MARK: - Running

    /// Starts the job on its executor, never on the caller's thread: no callback runs before
    /// `begin` has returned. Called once, by the installer.
    func start() {
        runner.start(self)
    }
}
