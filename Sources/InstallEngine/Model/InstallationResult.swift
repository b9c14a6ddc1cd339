import RestartScan

/// The result of a whole job (WUA `IInstallationResult`), returned by `endInstall`.
public struct InstallationResult: Sendable, Hashable {
    public var resultCode: OperationResultCode
    public var hResult: HResult
    /// The OR of the updates' `rebootRequired`.
    public var rebootRequired: Bool
    /// One per update, in the order of the job's update list.
    public var updateResults: [UpdateInstallationResult]
    /// What still runs deleted or replaced code and whether the machine needs a reboot, scanned
    /// when the job completed (rule 32); `nil` when no update of it ran or the queue has no
    /// `RestartAdvisor`.
    public var restartAdvice: RestartAdvice?
    /// Progress-channel lines of the job that could not be understood and were ignored (Documentation/MANIFESTS-AND-DRIVERS.md
    /// "What a child process gets"); 0 until the job completes.
    public var ignoredLines = 0
    /// Driver reports about an update outside the plan or out of its lifecycle, ignored (rule
    /// 22); 0 until the job completes.
    public var protocolErrors = 0
    /// Lines the driver's tool wrote that never reached the driver: for an observed job, dpkg's
    /// status lines the hooks' relay could not deliver (no engine listening at that moment, or
    /// its socket full; it counts them and says so in its next message that gets through).
    /// 0 until the job completes.
    public var droppedLines = 0

    public init(
        resultCode: OperationResultCode,
        hResult: HResult,
        rebootRequired: Bool,
        updateResults: [UpdateInstallationResult],
        restartAdvice: RestartAdvice? = nil
    ) {
        self.resultCode = resultCode
        self.hResult = hResult
        self.rebootRequired = rebootRequired
        self.updateResults = updateResults
        self.restartAdvice = restartAdvice
    }

    /// Whether some update of the job ran, so that it may have changed the system (rule 32).
    public var ranAnyUpdate: Bool {
        updateResults.contains { $0.startedAt != nil }
    }

    /// The result of update `index`.
    public func updateResult(at index: Int) -> UpdateInstallationResult {
        updateResults[index]
    }

    /// Rule 16: abort requested and it stopped something (an update ended aborted, or the abort
    /// was forced: processes were killed) → aborted; all succeeded → succeeded; every update
    /// failed → failed with `allUpdatesFailed`; any other mix → succeededWithErrors. A graceful
    /// abort that came when nothing was left to stop (every update had begun and ended by
    /// itself) leaves the results as they happened, and the job's result follows them.
    /// Rule 18: a `stop_on_failure` stop is not an abort, so callers pass `abortRequested: false`.
    public static func combining(
        _ updateResults: [UpdateInstallationResult],
        abortRequested: Bool, abortForced: Bool = false
    ) -> InstallationResult {
        let reboot = updateResults.contains { $0.rebootRequired }
        let codes = updateResults.map(\.resultCode)
        let code: OperationResultCode
        var hResult = HResult.ok
        if abortRequested && (abortForced || codes.contains(.aborted)) {
            code = .aborted
        } else if codes.allSatisfy({ $0 == .succeeded }) {
            code = .succeeded
        } else if codes.allSatisfy({ $0 == .failed }) {
            code = .failed
            hResult = .allUpdatesFailed
        } else {
            code = .succeededWithErrors
        }
        return InstallationResult(
            resultCode: code, hResult: hResult, rebootRequired: reboot, updateResults: updateResults)
    }
}
