import APTTestSupport
import FleetTestSupport
import Foundation

/// Each test host's own `installtop serve`, on the default socket in the host's private /run,
/// as the board's end-to-end tests run them.
extension FleetTestHosts {
    /// Where every host's engine listens: root's default socket, in the host's own /run.
    static let engineSocket = "/run/installtop.sock"

    /// `installtop serve` in host `host`'s namespaces (1 for h1) on `engineSocket`, apt's state
    /// `apt`'s root, no history, and `extra` arguments. Its pid is serve's (`nsenter` execs it).
    /// - Parameter history: the engine's history database; none is kept without it.
    func serve(onHost host: Int, apt: APTTestRoot, folder: EndToEndFolder, extra: [String] = [], history: String? = nil) throws -> InstalltopChild {
        let record = history.map { ["--history-db", $0] } ?? ["--no-history"]
        let command = try command(onHost: host, [try EndToEndFolder.binary(), "serve", "--socket", Self.engineSocket] + record
                                                 + ["--apt-config", apt.configuration] + extra)
        return try InstalltopChild(Array(command.dropFirst()), in: folder, executable: command[0])
    }

    /// The jobs of host `host`'s own `status --json`, asked on the host itself.
    /// - Throws: `EndToEndError` with what status said when it printed no jobs.
    func ownJobs(onHost host: Int) throws -> [[String: Any]] {
        let status = try run(onHost: host, "'\(try EndToEndFolder.binary())' status --json --socket \(Self.engineSocket)")
        let object = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        guard let jobs = object?["jobs"] as? [[String: Any]] else {
            throw EndToEndError("h\(host): status --json printed no jobs: \(status.stdout)\(status.stderr)")
        }
        return jobs
    }
}
