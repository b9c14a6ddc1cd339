import Glibc

/// A failed system call's `errno`, with the text `strerror` gives it.
struct Errno: Error, Hashable {
    var code: Int32

    /// The process is gone (or was a kernel thread with nothing to read): not worth reporting.
    var meansGone: Bool { code == ENOENT || code == ESRCH }

    var description: String { String(cString: strerror(code)) }
}
