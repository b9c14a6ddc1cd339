import CPosixSpawn

/// An errno value from a failed system call, with its English description.
public struct SystemError: Error {
    public var code: Int32

    /// "No such file or directory", "Permission denied", …
    public var description: String { String(cString: cps_error_description(code)) }

    /// The calling thread's current errno.
    static var current: SystemError { SystemError(code: cps_errno()) }
}
