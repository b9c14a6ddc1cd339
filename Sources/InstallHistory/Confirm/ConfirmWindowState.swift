/// Where a commit-confirmed run stands (Documentation/COMMIT-CONFIRMED.md).
public enum ConfirmWindowState: String, Sendable, Hashable, CaseIterable {
    /// Waiting for a confirmation until its deadline.
    case armed
    /// Confirmed in time: the run stays.
    case confirmed
    /// Its revert was claimed (deadline passed, a regressed check, or asked) and is under way.
    case reverting
    /// Its undo put every package back.
    case reverted
    /// The deadline passed, or a revert was asked, but the undo could not put the run back
    /// (refused or failed): the run stays as the job left it, with why.
    case expired

    /// Whether nothing can change it any more.
    public var isSettled: Bool { self == .confirmed || self == .reverted || self == .expired }
}
