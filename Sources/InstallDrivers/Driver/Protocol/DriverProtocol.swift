/// The driver protocol: how one installer process (a *driver*: apt, Ansible, or any program)
/// reports on many updates, possibly of many jobs (Documentation/ENGINE-SEMANTICS.md rules 21–27).
///
/// A driver writes JSON Lines on file descriptor 3 (`INSTALLTOP_PROGRESS_FD`): one object per
/// line, each with a `"type"`, decoded by `DriverMessage.decode(_:)`. installtop writes
/// `DriverControl` lines to the driver's file descriptor 4 (`INSTALLTOP_CONTROL_FD`). Documentation/DRIVER-PROTOCOL.md,
/// "Driver protocol" section is the reference for driver authors.
public enum DriverProtocol {
    /// The version this installtop speaks. A driver that says another one in its `hello` is
    /// refused: versions are not compatible with each other.
    public static let version = 1
    /// The descriptor a driver writes its messages to.
    public static let messageDescriptor: Int32 = 3
    /// The descriptor a driver reads `DriverControl` lines from.
    public static let controlDescriptor: Int32 = 4
}
