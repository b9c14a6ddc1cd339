/// Where an update's percentages come from.
public enum ProgressSource: String, Sendable, Hashable, CaseIterable {
    /// Lines on file descriptor 3 (`progress 42 text`, APT status lines).
    case channel
    /// The last `NN%` found in a line of stdout or stderr.
    case output
    /// No percentages: the update is shown as indeterminate.
    case none
}
