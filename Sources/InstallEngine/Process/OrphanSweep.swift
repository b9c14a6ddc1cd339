import CPosixSpawn
import Glibc

/// The process groups of ended updates whose orphans this process may have adopted
/// (`AdoptedChildren.adopt()`), reaped as they exit while the run goes on, so a killed update's
/// `sleep` is not a zombie until installtop exits (an operator's `ps` would show it `<defunct>`,
/// and its process group would look alive).
///
/// Owned by the poller's thread. A group is looked at when its leader settles and then again
/// with a growing pause (10 ms doubling to 5 s) while children of this process live in it; it is
/// dropped once none is left. Only groups are waited for, never any child (`waitpid(-1)` would
/// take the exit status of a child another part of the process waits for), and a group whose
/// id is a watched child's (the pid was reused) is dropped unlooked-at.
struct OrphanSweep {
    private static let firstPause: Duration = .milliseconds(10)
    private static let longestPause: Duration = .seconds(5)

    private struct Group {
        var due: ContinuousClock.Instant
        var pause: Duration
    }

    private var groups: [pid_t: Group] = [:]

    /// Starts looking at `group`, the process group of an update that settled; does nothing
    /// unless this process adopts orphans.
    mutating func groupEnded(_ group: pid_t, now: ContinuousClock.Instant) {
        guard group > 0, AdoptedChildren.isAdopting else { return }
        groups[group] = Group(due: now, pause: Self.firstPause)
    }

    /// Reaps the exited orphans of every group that is due. `isWatched(pgid)` says whether a
    /// watched child leads a group of that id now.
    mutating func sweep(now: ContinuousClock.Instant, isWatched: (pid_t) -> Bool) {
        for (id, group) in groups where group.due <= now {
            if isWatched(id) || cps_reap_exited_in_group(id) != 1 {
                groups[id] = nil
                continue
            }
            let pause = min(group.pause * 2, Self.longestPause)
            groups[id] = Group(due: now + group.pause, pause: pause)
        }
    }

    /// The nearest time a group is due, if any.
    var nextDue: ContinuousClock.Instant? {
        groups.values.map(\.due).min()
    }
}
