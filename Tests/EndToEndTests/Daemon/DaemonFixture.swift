import APTTestSupport
import Foundation
import Glibc
import TestProcessSupport

/// One `installtop serve` for one test: its own folder (mode 0700), socket, history database
/// (or `--no-history`) and dpkg to follow (an empty private root: an apt run on the host during
/// the test never becomes an observed job in it), and helpers to run the client commands
/// against it.
/// The serve process and everything it started are killed when the fixture goes (see
/// `InstalltopProcess`), also when a test fails half-way; `remove()` deletes the folder.
final class DaemonFixture {
    let folder: TestFolder
    let socket: String
    /// The history database, `nil` with `--no-history`.
    let historyDatabase: String?
    private(set) var serve: InstalltopProcess?
    /// A private apt root with no packages, in the folder: serve follows its dpkg lock and log
    /// unless the test names another root.
    let quietAPT: APTTestRoot

    /// Creates the folder with `mode` (0700 unless a test needs the directory reachable by others).
    init(history: Bool = false, mode: mode_t = 0o700) throws {
        folder = try TestFolder()
        chmod(folder.path, mode)
        socket = folder.file("engine.sock")
        historyDatabase = history ? folder.file("history.db") : nil
        quietAPT = try APTTestRoot(folder: folder.file("quiet-apt"))
    }

    /// `--apt-config` of `quietAPT`, for a serve the test starts by itself.
    var quietDpkgArguments: [String] { ["--apt-config", quietAPT.configuration] }

    /// Starts serve and waits until it answers on its socket. It follows `quietAPT`'s dpkg
    /// unless `extraArguments` name another `--apt-config`.
    @discardableResult
    func start(extraArguments: [String] = []) async throws -> InstalltopProcess {
        let history = historyDatabase.map { ["--history-db", $0] } ?? ["--no-history"]
        let dpkg = extraArguments.contains("--apt-config") ? [] : quietDpkgArguments
        let process = try InstalltopProcess(["serve", "--socket", socket] + history + dpkg + extraArguments, in: folder)
        serve = process
        try await waitUntil("serve to listen on \(socket); stderr:\n\(process.stderr)") {
            process.stderr.contains("serving on \(socket)")
        }
        return process
    }

    /// Runs `installtop arguments --socket SOCKET` to completion.
    func run(_ arguments: [String], timeout: Duration = .seconds(180)) async throws -> RunResult {
        try await installtop(arguments + ["--socket", socket], in: folder, timeout: timeout)
    }

    /// `installtop status --json`, parsed: the `jobs` array.
    func statusJobs() async throws -> [[String: Any]] {
        let result = try await run(["status", "--json"])
        guard result.status == 0,
              let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let jobs = object["jobs"] as? [[String: Any]] else {
            throw EndToEndError.notJSON(line: "status --json exited \(result.status): \(result.stdout)\(result.stderr)")
        }
        return jobs
    }

    /// Job `id` of `status --json`, or nil when the queue does not hold it.
    func statusJob(_ id: Int) async throws -> [String: Any]? {
        try await statusJobs().first { ($0["job"] as? NSNumber)?.intValue == id }
    }

    /// Polls `status --json` until job `id` is in `state` (running, aborted, succeeded …).
    func waitForJob(_ id: Int, state: String, timeout: Duration = .seconds(180)) async throws {
        var last: [String: Any]?
        let reached = try await eventually(timeout: timeout) {
            last = try await statusJob(id)
            return last?["state"] as? String == state
        }
        if !reached { throw EndToEndError.conditionNotMet("job \(id) to be \(state); status said \(String(describing: last))") }
    }

    /// Writes a manifest of one job named `name` whose single update runs `script` and returns
    /// its path.
    @discardableResult
    func manifest(_ file: String = "manifest.yaml", job name: String, update: String, script: String) throws -> String {
        try folder.write(file, """
            jobs:
              - name: \(name)
                updates:
                  - {id: \(update), title: \(update) update, install: [\(script)]}
            """)
    }

    /// A script that prints `lines` numbered lines (`line 1` …), reports 40 % with message
    /// "gated", then waits (at most 10 minutes: under a loaded CI a minute ran out before a
    /// test's abort came) for the file `release` to appear, then prints
    /// "released" and exits 0. It first writes its pid to `NAME.pid` (atomically).
    func gatedScript(_ name: String = "gated.sh", lines: Int = 3) throws -> String {
        try folder.script(name, """
            echo $$ > \(folder.file(name)).pid.tmp && mv \(folder.file(name)).pid.tmp \(folder.file(name)).pid
            i=1
            while [ $i -le \(lines) ]; do echo "line $i"; i=$((i + 1)); done
            echo "progress 40 gated" >&3
            i=0
            while [ ! -e \(releaseFile) ] && [ $i -lt 12000 ]; do sleep 0.05; i=$((i + 1)); done
            echo "released"
            """)
    }

    /// The file whose creation lets `gatedScript` finish.
    var releaseFile: String { folder.file("release") }

    /// Lets every gated script finish.
    func release() throws { try folder.write("release", "") }

    /// Kills serve (SIGKILL) and everything it started, and deletes the folder.
    func remove() {
        serve = nil
        folder.remove()
    }
}
