/// Settings that apply to every job of an installer or queue.
public struct EngineConfiguration: Sendable, Hashable {
    /// Debian's marker file; an update that makes it appear or change requires a reboot (rule 17).
    public var rebootMarkerPath: String
    /// Recorded in history as the application that installed (WUA `ClientApplicationID`).
    public var clientApplicationID: String
    /// When set, replaces every update's own abort grace (`--abort-grace`).
    public var abortGraceOverride: Duration?

    public init(
        rebootMarkerPath: String = "/run/reboot-required",
        clientApplicationID: String = "installtop",
        abortGraceOverride: Duration? = nil
    ) {
        self.rebootMarkerPath = rebootMarkerPath
        self.clientApplicationID = clientApplicationID
        self.abortGraceOverride = abortGraceOverride
    }
}
