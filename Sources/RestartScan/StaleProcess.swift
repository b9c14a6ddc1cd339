/// A process that still runs code from deleted or replaced files.
public struct StaleProcess: Sendable, Hashable {
    public var pid: Int32
    /// The kernel's name for it (`/proc/PID/comm`, at most 15 bytes).
    public var command: String
    public var uid: UInt32
    /// The user's name from its root's `etc/passwd`; the uid in decimal when it is not there.
    public var user: String
    public var owner: ProcessOwner
    /// Its executable first when that is stale, then mapped files in the order of the maps.
    public var files: [StaleFile]
    /// `nil` for a process of the scanned root; for one in another root, that root as
    /// `/proc/PID/root` shows it to the scan (`/srv/jail`; `/` for a root the scan cannot reach,
    /// such as the host's seen from inside a chroot, or a container's own).
    public var root: String?

    public init(pid: Int32, command: String, uid: UInt32, user: String, owner: ProcessOwner, files: [StaleFile], root: String? = nil) {
        self.pid = pid
        self.command = command
        self.uid = uid
        self.user = user
        self.owner = owner
        self.files = files
        self.root = root
    }
}
