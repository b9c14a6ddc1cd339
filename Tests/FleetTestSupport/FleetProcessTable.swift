import Foundation
import Glibc
import TestProcessSupport

/// What /proc says about a process: whether it is gone and when it started (a pid alone may
/// have been reused by the time a stale run is swept).
enum FleetProcessTable {
    /// Whether `pid` is gone: no such process, or a zombie waiting for a parent that does not
    /// reap (a container's init may not), which no signal reaches.
    static func isGone(_ pid: pid_t) -> Bool {
        if kill(pid, 0) == -1 && errno == ESRCH { return true }
        guard let fields = ProcessStat.fields(in: "/proc/\(pid)") else { return true }
        return fields.first == "Z"
    }

    /// The start time of `pid` in clock ticks since boot (field 22 of /proc/PID/stat), `nil`
    /// when there is no such process.
    static func startTime(_ pid: pid_t) -> String? {
        guard let fields = ProcessStat.fields(in: "/proc/\(pid)"), fields.count > 19 else { return nil }
        return String(fields[19])
    }

    /// The processes in network namespace `name`, from `ip netns pids` (zombies are not listed:
    /// their namespace links cannot be read).
    static func pids(inNamespace name: String, ip: String) -> [pid_t] {
        guard let result = try? FleetCommand.run([ip, "netns", "pids", name], timeout: .seconds(10)), result.status == 0 else {
            return []
        }
        return result.stdout.split(separator: "\n").compactMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }
    }
}

extension FleetProcessTable {
    /// Ends every process in `namespaces` except `spared`: SIGTERM (again for any that appear
    /// meanwhile, such as an sshd forking for a connection), SIGKILL to what is left after
    /// `grace`, until `ip netns pids` lists none. Returns what even SIGKILL did not end.
    static func endAll(inNamespaces namespaces: [String], sparing spared: Set<pid_t> = [], ip: String,
                       grace: Duration = .seconds(5)) -> [pid_t] {
        let termDeadline = ContinuousClock.now + grace
        let killDeadline = termDeadline + .seconds(5)
        var termed = Set<pid_t>()
        while true {
            let running = namespaces.flatMap { pids(inNamespace: $0, ip: ip) }.filter { !spared.contains($0) && !isGone($0) }
            if running.isEmpty { return [] }
            let now = ContinuousClock.now
            if now >= killDeadline { return running }
            for pid in running {
                if now >= termDeadline {
                    kill(pid, SIGKILL)
                } else if termed.insert(pid).inserted {
                    kill(pid, SIGTERM)
                }
            }
            _ = FleetPolling.until(now < termDeadline ? termDeadline : killDeadline) { running.allSatisfy(isGone) }
        }
    }

    /// The live processes whose environment holds `marker` or whose command line holds
    /// `path`: what a fleet run started (its children inherit the marker; an ssh master's
    /// command line names its socket under the run's folder).
    static func live(withMarker marker: String, orPath path: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let markerBytes = Data(marker.utf8)
        let pathBytes = Data(path.utf8)
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard pid != getpid() else { return false }
            let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            guard environment.range(of: markerBytes) != nil || commandLine.range(of: pathBytes) != nil else { return false }
            return !isGone(pid)
        }
    }
}
