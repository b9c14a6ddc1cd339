import Glibc

/// A child that `ChildSpawner` started, and installtop's ends of its descriptors.
struct SpawnedChild {
    let pid: pid_t
    /// Polls readable when the child exits; -1 when `pidfd_open` is unavailable.
    let pidfd: Int32
    /// Read ends (non-blocking) of the child's stdout, stderr and progress channel (fd 3).
    let stdoutRead: Int32
    let stderrRead: Int32
    let progressRead: Int32
    /// Write end (non-blocking) of the child's control channel (fd 4); -1 when it has none.
    var controlWrite: Int32 = -1
}
