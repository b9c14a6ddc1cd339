import Foundation
import Glibc
import Testing

/// The install history through the binary: `run --history-db` records, `history --json`
/// lists newest first (rule 19), and a killed installtop's running update is settled as
/// interrupted without losing anything (rule 20).
@Suite("history")
struct HistoryTests {
    @Test("as root without a history of its own, history shows the service's and says so; once root has one, root's",
          .enabled(if: geteuid() == 0, "installtop looks for the service's history only as root"))
    func rootFindsTheServiceHistory() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let service = folder.file("var-lib-installtop/history.sqlite3")
        try folder.write("one.yaml", "jobs:\n  - name: Service job\n    updates:\n      - {id: served, install: 'true'}\n")
        let run = try await installtop(["run", "--plain", "--history-db", service, "one.yaml"], in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let environment = ["INSTALLTOP_SERVICE_HISTORY": service]

        let shown = try await installtop(["history", "--json"], in: folder, environment: environment)
        #expect(shown.status == 0, "stderr: \(shown.stderr)")
        #expect(try shown.jsonEvents().map { $0.string("updateId") } == ["served"], "\(shown.stdout)")
        let own = folder.file("state/installtop/history.sqlite3")
        #expect(shown.stderr == "installtop: showing the service's history, \(service) (\(own) does not exist)\n", "\(shown.stderr)")

        try folder.write("mine.yaml", "jobs:\n  - name: Own job\n    updates:\n      - {id: mine, install: 'true'}\n")
        _ = try await installtop(["run", "--plain", "mine.yaml"], in: folder, environment: environment)
        let ownShown = try await installtop(["history", "--json"], in: folder, environment: environment)
        #expect(try ownShown.jsonEvents().map { $0.string("updateId") } == ["mine"], "\(ownShown.stdout)")
        #expect(ownShown.stderr.isEmpty, "\(ownShown.stderr)")
    }

    @Test("as root, an undo of a run its own history lacks points to the service's history, in the words of the command that asked",
          .enabled(if: geteuid() == 0, "installtop looks for the service's history only as root"))
    func undoPointsToTheServiceHistory() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let service = folder.file("var-lib-installtop/history.sqlite3")
        try folder.write("one.yaml", "jobs:\n  - name: Job\n    updates:\n      - {id: one, install: 'true'}\n")
        for database in [["--history-db", service], []] {
            let run = try await installtop(["run", "--plain", "one.yaml"] + database, in: folder, environment: ["INSTALLTOP_SERVICE_HISTORY": service])
            #expect(run.status == 0, "stderr: \(run.stderr)")
        }
        for tool in ["apt", "dnf"] {
            let undo = try await installtop([tool, "undo", "99"], in: folder, environment: ["INSTALLTOP_SERVICE_HISTORY": service])
            #expect(undo.status == 2, "\(undo.stderr)")
            #expect(undo.stderr.contains("the service's history may hold it: installtop \(tool) undo 99 --history-db \(service)"), "\(undo.stderr)")
        }
    }

    @Test("run records every update; history --json lists them newest first with their fields")
    func recordsAndLists() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("db/history.sqlite3")
        try folder.write("two.yaml", """
            jobs:
              - name: Tools
                updates:
                  - {id: jq, title: jq 1.6, install: 'echo "Setting up jq"; echo done'}
                  - {id: curl, title: curl 7.88, install: 'echo "curl: no space left" >&2; exit 7'}
            """)

        let run = try await installtop(["run", "--plain", "--history-db", database, "two.yaml"], in: folder)
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let history = try await installtop(["history", "--history-db", database, "--json"], in: folder)

        #expect(history.status == 0, "stderr: \(history.stderr)")
        let entries = try history.jsonEvents()
        #expect(entries.map { $0.string("updateId") } == ["curl", "jq"], "newest first: \(entries)")
        guard entries.count == 2 else { return }
        let curl = entries[0], jq = entries[1]
        #expect(curl.string("result") == "failed" && curl.int("resultCode") == 4)
        #expect(curl.string("hResult") == "0x8024200B" && curl.int("unmappedResultCode") == 7)
        #expect(curl.string("outputTail")?.contains("curl: no space left") == true, "\(curl)")
        #expect(curl.string("job") == "Tools" && curl.string("title") == "curl 7.88")
        #expect(jq.string("result") == "succeeded" && jq.string("hResult") == "0x00000000")
        #expect(jq.string("outputTail") == "Setting up jq\ndone", "\(jq)")
        for entry in entries {
            #expect(entry.string("operation") == "install")
            #expect(entry.string("clientApplicationId") == "installtop")
            #expect(entry.bool("running") == false)
            #expect((entry.int("durationMs") ?? -1) >= 0, "\(entry)")
            #expect(entry.string("startedAt")?.hasSuffix("Z") == true && entry.string("endedAt")?.hasSuffix("Z") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("state/installtop")), "the default history was touched")
    }

    @Test("kill -9 during an update: the next history settles it as interrupted and keeps the rest")
    func crashSafety() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        try folder.script("forever.sh", """
            echo "waiting forever"
            echo $$ > forever.pid.tmp && mv forever.pid.tmp forever.pid
            sleep 300 &
            wait
            """)
        try folder.write("crash.yaml", """
            jobs:
              - name: Crash
                updates:
                  - {id: before, title: Done before the crash, install: "echo recorded"}
                  - {id: forever, title: Never ends, install: [./forever.sh]}
            """)

        let run = try InstalltopProcess(["run", "--json", "--history-db", database, "crash.yaml"], in: folder)
        let script = try await pidWritten(to: folder.file("forever.pid"))
        // The script is its own process group's leader: kill it whatever happens below (while
        // it leads it: a group id, too, can name another group once its leader is gone).
        defer { if script.isRunning { kill(-script.pid, SIGKILL) } }
        var running: [JSONEvent] = []
        try await waitUntil("history to show `forever` running") {
            running = try await historyEntries(database, in: folder)
            return running.contains { $0.string("updateId") == "forever" && $0.bool("running") == true }
        }
        #expect(running.first { $0.string("updateId") == "before" }?.string("result") == "succeeded")

        run.send(SIGKILL)
        let killed = try await run.finish()
        #expect(killed.status == 128 + SIGKILL)
        if script.isRunning { kill(-script.pid, SIGKILL) }

        let entries = try await historyEntries(database, in: folder)
        #expect(entries.map { $0.string("updateId") } == ["forever", "before"], "\(entries)")
        let forever = try #require(entries.first { $0.string("updateId") == "forever" })
        #expect(forever.string("result") == "failed" && forever.string("reason") == "interrupted", "\(forever)")
        #expect(forever.bool("running") == false)
        #expect(forever.string("hResult") == "0x8024200B")
        let before = try #require(entries.first { $0.string("updateId") == "before" })
        #expect(before.string("result") == "succeeded" && before.string("outputTail") == "recorded", "\(before)")

        if let integrity = try await sqliteIntegrity(of: database, in: folder) {
            #expect(integrity == "ok")
        }
    }

    /// `installtop history --json` of `database`, as parsed lines.
    private func historyEntries(_ database: String, in folder: TestFolder) async throws -> [JSONEvent] {
        let history = try await installtop(["history", "--history-db", database, "--json", "--limit", "100"], in: folder)
        guard history.status == 0 else { throw EndToEndError.conditionNotMet("history failed: \(history.stderr)") }
        return try history.jsonEvents()
    }

    /// `PRAGMA integrity_check` by the sqlite3 CLI, or `nil` when it is not installed.
    private func sqliteIntegrity(of database: String, in folder: TestFolder) async throws -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            .split(separator: ":").map { $0 + "/sqlite3" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return nil }
        let check = try await InstalltopProcess([database, "PRAGMA integrity_check"], in: folder, executable: path).finish()
        return check.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
