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
        // Each update marks that it started, then waits until all have (the point: 1,200
        // descriptors in use at once), looking once a second with the shell's own glob (a
        // tighter loop here starved the rest of the test run; a fixed sleep was outrun by
        // 300 starts at load 32). It gives up after 80 s, failing, so a broken run ends.
        let started = folder.file("started")
        try FileManager.default.createDirectory(atPath: started, withIntermediateDirectories: false)
        let wait = "touch \"$0/u$1\"; i=0; while set -- \"$0\"/u*; [ $# -lt \(count) ] && [ $i -lt 80 ]; do sleep 1; i=$((i+1)); done; [ $# -ge \(count) ]"
        var manifest = "jobs:\n"
        for index in 0..<count {
            manifest += """
                  - name: job \(index)
                    updates:
                      - {id: wait-\(index), install: [/bin/sh, -c, '\(wait)', '\(started)', '\(index)']}

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
