/// An executable file a process still maps although its path no longer leads to it.
public struct StaleFile: Sendable, Hashable {
    /// How the path lost the file the process maps.
    public enum Change: String, Sendable, Hashable {
        /// The kernel says `(deleted)`: no path leads to the mapped inode (dpkg renamed a new file over it).
        case deleted
        /// The path leads to another inode on the same device than the one mapped.
        case replaced
    }

    /// The path as the kernel shows it, without ` (deleted)`.
    public var path: String
    public var change: Change

    public init(path: String, change: Change) {
        self.path = path
        self.change = change
    }
}
