import Glibc

/// The mailbox's pipe could not be created.
struct MailboxError: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { "cannot create the monitor's wake-up pipe: \(String(cString: strerror(errno)))" }
}
