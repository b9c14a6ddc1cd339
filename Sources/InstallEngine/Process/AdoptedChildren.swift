import CPosixSpawn
import Glibc
import Synchronization

/// The processes an update leaves behind when it ends or is killed (a `sleep` whose shell died
/// first): orphans that would go to init, which in a container may never reap them. Once
/// `adopt()` has made this process their subreaper they become its children instead, and
/// `reapAll()` collects them, so nothing an install started is left a zombie when installtop
/// exits (`run … | head`: the closed stdout aborts the jobs, the killed groups leave orphans).
///
/// For a process that runs jobs and then exits (`run`, `demo`, `apt`, `ansible`, `drive`): while
/// it runs, the orphans of each ended update's process group are reaped as they exit
/// (`OrphanSweep`, on the child poller's thread); `reapAll()` takes the rest (orphans that left
/// their group) and must come after every job is done, when nothing else in the process waits
/// for a child (it waits for any child).
public enum AdoptedChildren {
    private static let adopting = Atomic<Bool>(false)

    /// Whether `adopt()` made this process a subreaper.
    static var isAdopting: Bool { adopting.load(ordering: .relaxed) }

    /// Makes this process the subreaper of its descendants (`PR_SET_CHILD_SUBREAPER`).
    /// - Returns: false when the kernel refused (then orphans go to init, as before).
    @discardableResult
    public static func adopt() -> Bool {
        let adopted = cps_become_child_subreaper() == 0
        if adopted { adopting.store(true, ordering: .relaxed) }
        return adopted
    }

    /// Reaps every child that has exited, and waits, at most `timeout`, for the children that are
    /// dying (killed with their group: SIGKILL pending, or already exiting) to be reaped too.
    /// A child that is neither (a daemon an install started, which left the update's process
    /// group) is left running: it outlives installtop as it would have without the adoption.
    public static func reapAll(timeout: Duration = .seconds(5)) {
        let deadline = ContinuousClock.now + timeout
        while true {
            reapExited()
            let dying = children().filter(isDying)
            if dying.isEmpty || ContinuousClock.now >= deadline { return }
            usleep(2_000)
        }
    }

    /// `waitpid(-1, WNOHANG)` until no exited child is left.
    private static func reapExited() {
        var status: Int32 = 0
        while true {
            let pid = waitpid(-1, &status, WNOHANG)
            if pid > 0 { continue }
            if pid < 0 && errno == EINTR { continue }
            return
        }
    }

    /// This process's children, from `/proc/PID/stat` (field 4, the parent).
    private static func children() -> [pid_t] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        let me = getpid()
        var found: [pid_t] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), let fields = statFields(pid), fields.count > 1, pid_t(fields[1]) == me else { continue }
            found.append(pid)
        }
        return found
    }

    /// Whether `pid` is on its way out: exiting (`PF_EXITING` in its flags) or with SIGKILL
    /// pending, for itself or its thread group.
    private static func isDying(_ pid: pid_t) -> Bool {
        guard let fields = statFields(pid) else { return false }
        // Fields after the command: state (0), ppid (1) … flags (6).
        if fields.count > 6, let flags = UInt64(fields[6]), flags & 0x4 != 0 { return true }
        guard let status = text(of: "/proc/\(pid)/status") else { return false }
        let killBit: UInt64 = 1 << (UInt64(SIGKILL) - 1)
        for line in status.split(separator: "\n") where line.hasPrefix("SigPnd:") || line.hasPrefix("ShdPnd:") {
            let mask = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap { UInt64($0, radix: 16) } ?? 0
            if mask & killBit != 0 { return true }
        }
        return false
    }

    /// The fields of `/proc/PID/stat` after the command's closing parenthesis.
    private static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let text = text(of: "/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    private static func text(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
