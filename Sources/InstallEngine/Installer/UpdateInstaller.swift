import Synchronization

/// Installs and uninstalls lists of updates, one job at a time (WUA `IUpdateInstaller`).
///
/// `beginInstall` refuses while a job runs (rule 3); put a `JobQueue` in front to queue jobs
/// instead. Callbacks of all its jobs run on `callbackQueue`, in order, never concurrently.
public final class UpdateInstaller: Sendable {
    /// Where this installer's callbacks run. Installers that share one get one global order.
    public let callbackQueue: SerialWorkQueue
    public let configuration: EngineConfiguration
    private let backend: any InstallBackend
    private let currentJob = Mutex<InstallationJob?>(nil)

    /// - Parameters:
    ///   - callbackQueue: where the callbacks of its jobs run; by default a queue with a thread
    ///     of its own, since callbacks are the host program's code and may block.
    ///
    /// Abort graces and timeouts are timed by the engine's timers (`EngineTimers`, on the
    /// reactor's thread) on the monotonic clock.
    public init(
        backend: any InstallBackend,
        configuration: EngineConfiguration = EngineConfiguration(),
        callbackQueue: SerialWorkQueue = SerialWorkQueue(runningOn: .ownThread(name: "installtop-cb"))
    ) {
        self.backend = backend
        self.configuration = configuration
        self.callbackQueue = callbackQueue
    }

    /// True while a job of this installer has not completed. Advisory: it may change right after.
    public var isBusy: Bool {
        currentJob.withLock { $0.map { !$0.isCompleted } ?? false }
    }

    // MARK: - Begin

    /// Starts installing `updates` and returns the running job at once.
    ///
    /// - Parameters:
    ///   - name: passed to children as `INSTALLTOP_JOB`.
    ///   - stopOnFailure: rule 18.
    ///   - onProgress: called for every change, in order (rule 8).
    ///   - onCompleted: called exactly once, last (rule 9).
    ///   - state: returned as the job's `asyncState`.
    ///   - driver: runs the whole job instead of one child per update (rules 21–25); the
    ///     updates then need no commands.
    /// - Throws: `noUpdate` for an empty list (rule 1), `exclusiveInstallConflict` when an
    ///   exclusive update is mixed with others (rule 2), `missingCommand` when an update has no
    ///   install command, `installNotAllowed` while another job runs (rule 3). No job is
    ///   created and nothing runs when it throws.
    public func beginInstall(
        _ updates: [Update],
        name: String = "",
        stopOnFailure: Bool = false,
        onProgress: InstallationProgressChangedCallback? = nil,
        onCompleted: InstallationCompletedCallback? = nil,
        state: (any Sendable)? = nil,
        driver: (any JobDriver)? = nil
    ) throws(InstallerError) -> InstallationJob {
        try begin(.install, updates, name, stopOnFailure, onProgress, onCompleted, state, driver)
    }

    /// Starts uninstalling `updates`; the same rules as `beginInstall`, with uninstall commands.
    public func beginUninstall(
        _ updates: [Update],
        name: String = "",
        stopOnFailure: Bool = false,
        onProgress: InstallationProgressChangedCallback? = nil,
        onCompleted: InstallationCompletedCallback? = nil,
        state: (any Sendable)? = nil,
        driver: (any JobDriver)? = nil
    ) throws(InstallerError) -> InstallationJob {
        try begin(.uninstall, updates, name, stopOnFailure, onProgress, onCompleted, state, driver)
    }

    // MARK: - End

    /// Waits for `job` to complete and returns its result (rule 14); a second call returns the
    /// same result.
    /// - Throws: `invalidOperation` for a job of another installer or an uninstall job.
    public func endInstall(_ job: InstallationJob) async throws(InstallerError) -> InstallationResult {
        try await end(job, expecting: .install)
    }

    /// Waits for the uninstall `job` and returns its result; see `endInstall`.
    public func endUninstall(_ job: InstallationJob) async throws(InstallerError) -> InstallationResult {
        try await end(job, expecting: .uninstall)
    }

    // MARK: - Synchronous-style

    /// `beginInstall` then `endInstall`.
    public func install(_ updates: [Update], name: String = "", stopOnFailure: Bool = false) async throws(InstallerError) -> InstallationResult {
        try await endInstall(beginInstall(updates, name: name, stopOnFailure: stopOnFailure))
    }

    /// `beginUninstall` then `endUninstall`.
    public func uninstall(_ updates: [Update], name: String = "", stopOnFailure: Bool = false) async throws(InstallerError) -> InstallationResult {
        try await endUninstall(beginUninstall(updates, name: name, stopOnFailure: stopOnFailure))
    }

    // MARK: - Private

    private func begin(
        _ operation: UpdateOperation,
        _ updates: [Update],
        _ name: String,
        _ stopOnFailure: Bool,
        _ onProgress: InstallationProgressChangedCallback?,
        _ onCompleted: InstallationCompletedCallback?,
        _ asyncState: (any Sendable)?,
        _ driver: (any JobDriver)?
    ) throws(InstallerError) -> InstallationJob {
        try Self.validate(updates, for: operation, needsCommands: driver == nil)
        let job = InstallationJob(
            updates: updates, operation: operation, name: name, stopOnFailure: stopOnFailure,
            asyncState: asyncState, onProgress: onProgress, onCompleted: onCompleted,
            installerID: ObjectIdentifier(self), callbackQueue: callbackQueue, configuration: configuration,
            backend: backend, driver: driver)
        let accepted = currentJob.withLock { current -> Bool in
            if let current, !current.isCompleted { return false }
            current = job
            return true
        }
        guard accepted else { throw .installNotAllowed }
        // On the job's executor, not on the caller's thread: a callback must not run before
        // `begin` has returned.
        job.start()
        return job
    }

    /// The checks of rules 1 and 2, and that every update can run for `operation` (unless a
    /// driver runs the job: then the updates need no commands).
    public static func validate(
        _ updates: [Update], for operation: UpdateOperation, needsCommands: Bool = true
    ) throws(InstallerError) {
        guard !updates.isEmpty else { throw .noUpdate }
        if updates.count > 1, updates.contains(where: { $0.impact == .exclusive }) {
            throw .exclusiveInstallConflict
        }
        if needsCommands, let missing = updates.first(where: { $0.command(for: operation) == nil }) {
            throw .missingCommand(updateID: missing.id, operation: operation)
        }
    }

    private func end(_ job: InstallationJob, expecting operation: UpdateOperation) async throws(InstallerError) -> InstallationResult {
        guard job.installerID == ObjectIdentifier(self) else {
            throw .invalidOperation("the job was started by another installer")
        }
        guard job.operation == operation else {
            throw .invalidOperation(
                operation == .install
                    ? "endInstall was given an uninstall job; use endUninstall"
                    : "endUninstall was given an install job; use endInstall")
        }
        return await job.waitForResult()
    }
}
