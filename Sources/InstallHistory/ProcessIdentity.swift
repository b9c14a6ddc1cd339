import RestartScan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who wrote a history row: enough to tell, later and from another process, whether that
/// writer is still alive (rule 20).
///
/// A pid alone is not enough: pids are reused, so the process's start time (field 22,
/// `starttime`, of `/proc/PID/stat`, in clock ticks since boot) and the kernel's boot id are
/// recorded with it. A live process with the same pid but another start time, or any process
/// after a reboot, is a different writer.
public struct ProcessIdentity: Sendable, Hashable {
    /// The process id.
    public var pid: Int32
    /// Clock ticks after boot at which the process started; `nil` where `/proc` is missing.
    public var startTime: UInt64?
    /// `/proc/sys/kernel/random/boot_id`; `nil` where it is missing.
    public var bootID: String?

    /// An identity as recorded; `current()` and `of(pid:)` read a real one.
    public init(pid: Int32, startTime: UInt64?, bootID: String?) {
        self.pid = pid
        self.startTime = startTime
        self.bootID = bootID
    }

    // MARK: - Reading the system

    /// The identity of this process.
    public static func current() -> ProcessIdentity {
        let pid = getpid()
        return ProcessIdentity(pid: pid, startTime: ProcFS().stat(of: pid)?.startTicks, bootID: ProcFS().bootID())
    }

    /// The identity of the running process `pid`, or `nil` when there is no such process
    /// (or it has already exited and is a zombie). Needs `/proc`.
    public static func of(pid: Int32) -> ProcessIdentity? {
        guard let stat = ProcFS().stat(of: pid), !stat.isDead else { return nil }
        return ProcessIdentity(pid: pid, startTime: stat.startTicks, bootID: ProcFS().bootID())
    }

    /// Whether the process this identity names is still running.
    ///
    /// False when the pid no longer exists, is a zombie, started at another time, or the
    /// identity comes from an earlier boot. Where `/proc` is missing (no start time recorded)
    /// only the pid's existence can be checked.
    public var isAlive: Bool {
        if let bootID, let current = ProcFS().bootID(), bootID != current { return false }
        guard let startTime else { return Self.pidExists(pid) }
        guard let stat = ProcFS().stat(of: pid), !stat.isDead else { return false }
        return stat.startTicks == startTime
    }

    private static func pidExists(_ pid: Int32) -> Bool {
        // EPERM means the pid exists but belongs to someone else: still alive.
        kill(pid, 0) == 0 || errno == EPERM
    }
}
