import CPosixSpawn
import Glibc
import RestartScan
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
    /// The process groups whose leader was reaped and the rest killed with SIGKILL
    /// (`ChildProcess.reap`), while adopting.
    private static let killedGroups = Mutex<Set<pid_t>>([])

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

    /// Notes that `group`'s leader was reaped and the group killed with SIGKILL: what is left in
    /// it is dying, whatever its signal state says when `reapAll` looks.
    static func groupKilled(_ group: pid_t) {
        guard isAdopting else { return }
        _ = killedGroups.withLock { $0.insert(group) }
    }

    /// Reaps every child that has exited, and waits, at most `timeout`, for the children that are
    /// dying (in a group killed with SIGKILL, SIGKILL pending, or already exiting) to be reaped
    /// too. A child that is none of these (a daemon an install started, which left the update's
    /// process group) is left running: it outlives installtop as it would have without the
    /// adoption. The timeout is for a process stuck on its way out (in the kernel, on a dead
    /// mount); on a machine loaded enough, the others can take seconds to be scheduled at all.
    public static func reapAll(timeout: Duration = .seconds(15)) {
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
        ProcFS().children(of: getpid())
    }

    /// Whether `pid` is on its way out: exiting (`PF_EXITING` in its flags), in a group killed
    /// with SIGKILL, or with SIGKILL pending, for itself or its thread group.
    private static func isDying(_ pid: pid_t) -> Bool {
        let proc = ProcFS()
        guard let stat = proc.stat(of: pid) else { return false }
        if stat.isExiting { return true }
        // A member of a killed group (SIGKILL cannot be caught or blocked) may have taken the
        // signal off its pending set and not yet be marked exiting. Its pid is never the group's
        // id (that was the reaped leader); a process with that id now reused the number.
        if stat.pid != stat.processGroup, killedGroups.withLock({ $0.contains(stat.processGroup) }) { return true }
        return proc.status(of: pid)?.isPending(SIGKILL) ?? false
    }
}
