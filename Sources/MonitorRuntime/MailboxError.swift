import Glibc

/// The mailbox's pipe could not be created.
public struct MailboxError: Error, CustomStringConvertible {
    var errno: Int32
    public var description: String { "cannot create the monitor's wake-up pipe: \(String(cString: strerror(errno)))" }
}
