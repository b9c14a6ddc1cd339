import Foundation
import TestProcessSupport
import Testing

/// Rule 32 through the daemon: the restart advice of a served job reaches `status`, in the
/// table and in JSON, after the trip over the wire.
@Suite("daemon: restart advice")
struct DaemonRestartsTests {
    @Test("status shows the process that maps a library the job replaced, with the file")
    func status() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let library = try PreloadingSleeper.libraryCopy(in: daemon.folder.path)
        let sleeper = try PreloadingSleeper(preloading: library)
        defer { sleeper.stop() }
        #expect(await eventually { sleeper.maps(library) })
        try daemon.folder.write("replace.yaml", """
            jobs:
              - name: Upgrade
                updates:
                  - {id: libz, install: "cp '\(library)' '\(library).dpkg-new' && mv '\(library).dpkg-new' '\(library)'"}
            """)

        #expect(try await daemon.run(["submit", daemon.folder.file("replace.yaml")]).status == 0)
        try await daemon.waitForJob(1, state: "succeeded")

        let job = try #require(try await daemon.statusJob(1))
        let restarts = try #require(job["restarts"] as? [String: Any], "\(job)")
        let processes = restarts["processes"] as? [[String: Any]] ?? []
        let listed = try #require(processes.first { ($0["pid"] as? NSNumber)?.int32Value == sleeper.pid }, "\(restarts)")
        #expect((listed["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == [library])
        let table = try await daemon.run(["status"])
        let lines = table.stdoutLines
        let heading = try #require(lines.firstIndex(of: "Restarts"), "\(table.stdout)")
        #expect(lines[heading...].contains { $0.hasPrefix("\(sleeper.pid) ") && $0.hasSuffix(library + " (deleted)") }, "\(table.stdout)")
    }
}
