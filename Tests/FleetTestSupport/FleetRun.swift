import Foundation
import Glibc

/// One fleet's names on the machine: its namespaces `itop-<id>-…`, its folder
/// `/tmp/itop-fleet-<id>` and the owner file there (pid and start time of the test process),
/// by which a later run tells a fleet whose test process was killed from one still in use.
struct FleetRun: Sendable {
    /// Every fleet namespace starts with it; setup sweeps stale ones.
    static let namespacePrefix = "itop-"
    /// Where `ip netns add` puts a namespace's file.
    static let namespaceFolder = "/run/netns"

    let id: String
    let tools: FleetTools

    var namespacePrefix: String { "\(Self.namespacePrefix)\(id)-" }
    /// Under /tmp and not `temporaryDirectory`: a later run must find it from the id alone.
    var directory: String { Self.directory(of: id) }
    var marker: String { "ITOP_FLEET_RUN=\(id)" }

    static func directory(of id: String) -> String { "/tmp/itop-fleet-\(id)" }

    func namespace(_ suffix: String) -> String { namespacePrefix + suffix }

    /// A new id, its folder and the owner file, written before any namespace exists so that a
    /// concurrent sweep never takes a fleet being set up for stale.
    static func create(tools: FleetTools) throws -> FleetRun {
        let id = String(format: "%08x", UInt32.random(in: .min ... .max))
        let run = FleetRun(id: id, tools: tools)
        // Made under another name and renamed, so that a sweep never sees the folder without
        // its owner file (which it would take for a dead run's).
        let staging = "/tmp/.itop-fleet-\(id)"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        let owner = "\(getpid()) \(FleetProcessTable.startTime(getpid()) ?? "?")\n"
        try owner.write(toFile: staging + "/owner", atomically: false, encoding: .utf8)
        guard rename(staging, run.directory) == 0 else {
            throw FleetTestError("cannot rename \(staging) to \(run.directory): \(String(cString: strerror(errno)))")
        }
        return run
    }

    /// This run's namespaces that exist now.
    func existingNamespaces() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.namespaceFolder)) ?? []
        return names.filter { $0.hasPrefix(namespacePrefix) }.sorted()
    }

    /// Ends every process in the run's namespaces, deletes them and the folder. Returns what
    /// went wrong, empty when everything is gone.
    func remove() -> [String] {
        var problems: [String] = []
        let namespaces = existingNamespaces()
        let left = FleetProcessTable.endAll(inNamespaces: namespaces, ip: tools.ip)
        if !left.isEmpty { problems.append("processes \(left) survived SIGKILL") }
        for namespace in namespaces {
            let result = try? FleetCommand.run([tools.ip, "netns", "del", namespace], timeout: .seconds(10))
            if result?.status != 0 { problems.append("ip netns del \(namespace): \(result?.stderr ?? "did not finish")") }
        }
        do {
            if FileManager.default.fileExists(atPath: directory) { try FileManager.default.removeItem(atPath: directory) }
        } catch {
            problems.append("removing \(directory): \(error)")
        }
        return problems
    }

    /// Whether the test process that made this run still runs. A missing owner file counts as
    /// gone: it is written before the first namespace and removed after the last.
    var ownerIsAlive: Bool {
        guard let text = try? String(contentsOfFile: directory + "/owner", encoding: .utf8) else { return false }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let pid = pid_t(fields[0]) else { return false }
        return FleetProcessTable.startTime(pid) == String(fields[1])
    }

    /// Removes the runs (namespaces and folders) whose test process is gone: killed before its
    /// teardown. Returns the namespaces removed.
    static func removeStale(tools: FleetTools) -> [String] {
        let namespaces = (try? FileManager.default.contentsOfDirectory(atPath: namespaceFolder)) ?? []
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        var ids = Set(namespaces.filter { $0.hasPrefix(namespacePrefix) }.map { $0.dropFirst(namespacePrefix.count).prefix { $0 != "-" } })
        // A folder alone is left when the test process died between its creation and the first
        // namespace, or after the last namespace was deleted.
        ids.formUnion(folders.filter { $0.hasPrefix("itop-fleet-") }.map { $0.dropFirst("itop-fleet-".count) })
        var removed: [String] = []
        for id in ids.map(String.init).sorted() where !id.isEmpty {
            let run = FleetRun(id: id, tools: tools)
            guard !run.ownerIsAlive else { continue }
            removed += run.existingNamespaces()
            let problems = run.remove()
            if !problems.isEmpty {
                FileHandle.standardError.write(Data("itop fleet: stale run \(id) not fully removed: \(problems)\n".utf8))
            }
        }
        return removed
    }
}
