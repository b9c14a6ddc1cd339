import Foundation
import Testing

/// Many updates at once need more descriptors than a soft limit of 1,024 allows (four each).
@Suite("open file limit")
struct OpenFileLimitTests {
    @Test("300 concurrent updates under a soft limit of 256: installtop raises it to the hard limit; every update starts and succeeds")
    func manyConcurrentUpdates() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let go = folder.file("go")
        let count = 300
        var manifest = "jobs:\n"
        for index in 0..<count {
            manifest += """
                  - name: job \(index)
                    updates:
                      - id: wait-\(index)
                        install: "while [ ! -e '\(go)' ]; do sleep 0.05; done"

                """
        }
        let path = try folder.write("many.yaml", manifest)
        let run = try InstalltopProcess(
            ["--nofile=256:4096", try InstalltopBinary.path(), "run", path, "--json", "--no-history", "--concurrency", "\(count)"],
            in: folder, executable: "/usr/bin/prlimit")
        try await waitUntil("every update to start", timeout: .seconds(60)) {
            run.stdout.components(separatedBy: "\"event\":\"update.started\"").count - 1 == count
        }
        try Data().write(to: URL(fileURLWithPath: go))
        let result = try await run.finish(timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "\"result\":\"succeeded\"").count - 1 == 2 * count, "every update and job succeeded")
    }
}
