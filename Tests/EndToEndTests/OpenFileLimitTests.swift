import Foundation
import Testing

/// Many updates at once need more descriptors than a soft limit of 1,024 allows (four each).
@Suite("open file limit")
struct OpenFileLimitTests {
    @Test("300 concurrent updates under a soft limit of 256: installtop raises it to the hard limit; every update starts and succeeds")
    func manyConcurrentUpdates() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let count = 300
        var manifest = "jobs:\n"
        for index in 0..<count {
            // Long enough for all of them to run at once (the point: 1,200 descriptors in use),
            // idle while they do (a polling loop here starved the rest of the test run).
            manifest += """
                  - name: job \(index)
                    updates:
                      - {id: wait-\(index), install: [/bin/sleep, "5"]}

                """
        }
        let path = try folder.write("many.yaml", manifest)
        let result = try await InstalltopProcess(
            ["--nofile=256:4096", try InstalltopBinary.path(), "run", path, "--json", "--no-history", "--concurrency", "\(count)"],
            in: folder, executable: "/usr/bin/prlimit"
        ).finish(timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n")
        let firstCompletion = try #require(events.firstIndex { $0.contains("\"event\":\"update.completed\"") })
        #expect(events[..<firstCompletion].count { $0.contains("\"event\":\"update.started\"") } == count, "all ran at once")
        #expect(result.stdout.components(separatedBy: "\"result\":\"succeeded\"").count - 1 == 2 * count, "every update and job succeeded")
    }
}
