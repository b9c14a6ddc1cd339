import Foundation
import Glibc
import TestProcessSupport
import Testing

/// A job completes only after its restart scan (rule 32). `q` pressed as soon as the screen
/// shows its last update ended must quit without asking (nothing is left to abort), and
/// `run` must still wait for the completion: exit status 0 and a complete history row. Three
/// rounds while CPU hogs the test starts (and kills by pid) slow the scan down (with the fix
/// undone, 6 of 10 rounds failed; the hogs load the whole suite while they run, so few).
@Suite("Monitor end to end: quitting while a job waits for its restart scan", .serialized)
struct QuitWindowEndToEndTests {
    @Test("q right after the last update ended quits without asking; the run exits 0 with the job's history complete (3 rounds under load)")
    func quitRightAfterTheLastUpdate() async throws {
        let hogs = try CPUHogs(count: max(2, ProcessInfo.processInfo.activeProcessorCount))
        defer { hogs.stop() }
        for round in 1...3 {
            try await quitRound(round)
        }
    }

    private func quitRound(_ round: Int) async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        try folder.write("manifest.yaml", """
            jobs:
              - name: Upgrade
                updates:
                  - id: waiting
                    title: Waits for go
                    install: [sh, -c, "while [ ! -e '\(folder.path("go"))' ]; do sleep 0.02; done"]

            """)
        let binary = try EndToEndFolder.binary()
        let database = folder.path("history.sqlite3")
        let tmux = try TmuxSession(home: folder.url, command: "'\(binary)' run '\(folder.path("manifest.yaml"))' --history-db '\(database)'; "
            + "\(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("round \(round): the update running") { $0.contains("▶ Waits for go") }

        try folder.write("go", "")
        await tmux.waitForScreen("round \(round): the update ended", timeout: .seconds(60)) { $0.contains("✔ Waits for go") }
        tmux.send("q")

        let exited = await EndToEndFolder.eventually(timeout: .seconds(30)) { folder.read("rc") != nil }
        #expect(exited, "round \(round): installtop did not quit; the screen was:\n\(tmux.capture())")
        guard exited else {
            tmux.send("n")
            return
        }
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "round \(round)")
        let history = try historyJSON(database: database)
        #expect(history.contains("\"result\":\"succeeded\""), "round \(round): \(history)")
        #expect(!history.contains("interrupted"), "round \(round): \(history)")
    }

    /// `installtop history --json` of `database`.
    private func historyJSON(database: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try EndToEndFolder.binary())
        process.arguments = ["history", "--json", "--history-db", database]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
