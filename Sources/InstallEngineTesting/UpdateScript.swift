import InstallEngine

/// What a `ScriptedBackend` update does: report a list of things, then end, at once or when
/// the test releases it, and how it answers terminate and kill.
public struct UpdateScript: Sendable, Hashable {
    /// When the update ends by itself.
    public enum Ending: Sendable, Hashable {
        /// Right after its reports.
        case immediately
        /// Only when `ScriptedBackend.release(_:)` is called (or it is stopped).
        case whenReleased
    }

    /// How the update answers `terminate()` (SIGTERM).
    public enum TerminateResponse: Sendable, Hashable {
        /// Ends with this outcome.
        case end(UpdateRunOutcome)
        /// Keeps running, like a child that traps SIGTERM; only `kill()` stops it.
        case ignore
    }

    public var reports: [UpdateReport]
    public var ending: Ending
    /// The outcome when it ends by itself or is released.
    public var outcome: UpdateRunOutcome
    public var onTerminate: TerminateResponse

    public init(
        reports: [UpdateReport] = [],
        ending: Ending = .immediately,
        outcome: UpdateRunOutcome = .exited(0),
        onTerminate: TerminateResponse = .end(.signaled(15))
    ) {
        self.reports = reports
        self.ending = ending
        self.outcome = outcome
        self.onTerminate = onTerminate
    }

    /// Exits 0 at once.
    public static let succeed = UpdateScript()
    /// Exits with `status` at once.
    public static func fail(status: Int32 = 1) -> UpdateScript { UpdateScript(outcome: .exited(status)) }
    /// Runs until released or stopped.
    public static let hold = UpdateScript(ending: .whenReleased)
}
