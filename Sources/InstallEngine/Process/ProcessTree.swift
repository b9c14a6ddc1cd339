#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

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
        /// The command name (`/proc/PID/comm`), e.g. `dpkg`.
        public var name: String
    }

    /// Every descendant of `root` (not `root` itself), parents before children.
    public static func descendants(of root: pid_t) -> [Member] {
        var children: [pid_t: [Member]] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let parent = parent(inStat: stat) else { continue }
            children[parent, default: []].append(Member(pid: pid, name: name(inStat: stat)))
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

    /// `/proc/PID/stat` is `pid (comm) state ppid …`; the name may hold spaces and parentheses,
    /// so the fields after it are read from the last `)`.
    static func parent(inStat stat: String) -> pid_t? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    static func name(inStat stat: String) -> String {
        guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), open < close else { return "?" }
        return String(stat[stat.index(after: open)..<close])
    }
}
