import Glibc
import RestartScan

/// The descendants of a process, read from `/proc`: what a forced stop of a driver must kill,
/// wherever their session (apt's dpkg on its pty, maintainer scripts under it).
///
/// Edges: a process that double-forks and is reparented to init before the scan is no longer a
/// descendant and is not found; a pid read here may exit and be reused before it is signalled
/// (the window is the time between the scan and the signal, microseconds).
public enum ProcessTree {
    /// One process of the tree.
    public struct Member: Sendable, Hashable {
        public var pid: pid_t
        /// The command name (`comm`, as `/proc/PID/stat` shows it), e.g. `dpkg`.
        public var name: String

        /// A member as found by another scan than `descendants` (an apt transaction's processes
        /// found by their mark once apt-get ended).
        public init(pid: pid_t, name: String) {
            self.pid = pid
            self.name = name
        }
    }

    /// Every descendant of `root` (not `root` itself), parents before children.
    public static func descendants(of root: pid_t) -> [Member] {
        let proc = ProcFS()
        var children: [pid_t: [Member]] = [:]
        for pid in proc.pids() {
            guard let stat = proc.stat(of: pid) else { continue }
            children[stat.parent, default: []].append(Member(pid: pid, name: stat.command))
        }
        var found: [Member] = []
        var queue = [root]
        while let next = queue.popLast() {
            for child in children[next] ?? [] where !found.contains(child) {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }
}
