import Foundation
import TestProcessSupport
import Testing

/// Rule 32 end to end: a job that replaces a library a running process maps, the way dpkg does,
/// completes with that process in its result (`job.completed` in `--json`, `--plain`'s summary).
@Suite("restart advice in a job's result")
struct RestartAdviceInResultTests {
    /// A manifest whose one update replaces `library` as dpkg does.
    private func manifest(replacing library: String, in folder: TestFolder) throws {
        try folder.write("replace.yaml", """
            jobs:
              - name: Upgrade
                updates:
                  - {id: libz, title: Replace libz, install: "cp '\(library)' '\(library).dpkg-new' && mv '\(library).dpkg-new' '\(library)'"}
            """)
    }

    @Test("--json: job.completed carries restarts with the process and the replaced file")
    func json() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try PreloadingSleeper.libraryCopy(in: folder.path)
        let bystander = try PreloadingSleeper(preloading: "")
        defer { bystander.stop() }
        let sleeper = try PreloadingSleeper(preloading: library)
        defer { sleeper.stop() }
        #expect(await eventually { sleeper.maps(library) })
        try manifest(replacing: library, in: folder)

        let result = try await installtop(["run", "--json", "--no-history", "replace.yaml"], in: folder)

        #expect(result.status == 0, "stderr: \(result.stderr)")
        let completed = try #require(try result.jsonEvents().first { $0.name == "job.completed" })
        let restarts = try #require(completed.fields["restarts"] as? [String: Any], "\(completed)")
        #expect(restarts["restartNeeded"] as? Bool == true)
        let processes = restarts["processes"] as? [[String: Any]] ?? []
        let listed = try #require(processes.first { ($0["pid"] as? NSNumber)?.int32Value == sleeper.pid }, "\(restarts)")
        #expect(listed["command"] as? String == "sleep")
        #expect((listed["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == [library])
        #expect(!processes.contains { ($0["pid"] as? NSNumber)?.int32Value == bystander.pid })
    }

    @Test("--plain: the restarts, with the process and the file, come before the summary table")
    func plain() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try PreloadingSleeper.libraryCopy(in: folder.path)
        let sleeper = try PreloadingSleeper(preloading: library)
        defer { sleeper.stop() }
        #expect(await eventually { sleeper.maps(library) })
        try manifest(replacing: library, in: folder)

        let result = try await installtop(["run", "--plain", "--no-history", "replace.yaml"], in: folder, environment: ["COLUMNS": "1000"])

        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        let heading = try #require(lines.firstIndex(of: "Restarts"), "\(result.stdout)")
        let summary = try #require(lines.firstIndex(of: "Summary"), "\(result.stdout)")
        #expect(heading < summary)
        let line = lines[heading..<summary].first { $0.hasPrefix("\(sleeper.pid) ") }
        #expect(line?.hasSuffix(library + " (deleted)") == true, "\(result.stdout)")
    }

    @Test("--plain at 80 columns: the restarts above the summary fit the width, the file by name at least")
    func plainAtEightyColumns() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try PreloadingSleeper.libraryCopy(in: folder.path)
        let sleeper = try PreloadingSleeper(preloading: library)
        defer { sleeper.stop() }
        #expect(await eventually { sleeper.maps(library) })
        try manifest(replacing: library, in: folder)

        let result = try await installtop(["run", "--plain", "--no-history", "replace.yaml"], in: folder, environment: ["COLUMNS": "80"])

        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        let heading = try #require(lines.firstIndex(of: "Restarts"), "\(result.stdout)")
        let summary = try #require(lines.firstIndex(of: "Summary"), "\(result.stdout)")
        for line in lines[heading..<summary] {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
        }
        // Beside the row or on the line under it.
        let row = try #require(lines[heading..<summary].firstIndex { $0.hasPrefix("\(sleeper.pid) ") }, "\(result.stdout)")
        #expect((lines[row] + lines[row + 1]).contains("libz-copy.so.1 (deleted)"), "\(result.stdout)")
    }
}
