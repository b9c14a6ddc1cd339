import Foundation
import Testing

/// Malformed progress-channel lines are ignored and counted, and the count is shown: in
/// `job.completed`, `status --json` and `status` (Documentation/MANIFESTS-AND-DRIVERS.md "Drivers from manifests").
@Suite("ignored channel lines are counted and shown")
struct IgnoredLinesTests {
    static let manifest = """
        jobs:
          - name: Noisy
            updates:
              - id: noisy
                install: 'echo "progress lots" >&3; echo "nonsense" >&3; echo "progress 50" >&3'
          - name: Quiet
            updates:
              - id: quiet
                install: 'echo "progress 50" >&3'
        """

    @Test("run --json: job.completed carries ignoredLines for the job that wrote them, and no such field otherwise")
    func jobCompleted() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("noisy.yaml", Self.manifest)
        let result = try await installtop(["run", "--json", "--no-history", "noisy.yaml"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let completed = try result.jsonEvents().filter { $0.name == "job.completed" }
        #expect(completed.map { $0.int("ignoredLines") } == [2, nil], "\(result.stdout)")
    }

    @Test("status through serve shows the count, as JSON and below the tables")
    func status() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let manifest = try daemon.folder.write("noisy.yaml", Self.manifest)
        let submitted = try await daemon.run(["submit", manifest])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        try await daemon.waitForJob(2, state: "succeeded")
        let noisy = try #require(try await daemon.statusJob(1))
        #expect((noisy["ignoredLines"] as? NSNumber)?.intValue == 2, "\(noisy)")
        #expect(try await daemon.statusJob(2)?["ignoredLines"] == nil)
        let text = try await daemon.run(["status"])
        #expect(text.stdout.contains("job 1: 2 lines ignored\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("job 2:"))
    }
}
