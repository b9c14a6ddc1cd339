import Foundation
import Testing

/// Documentation/EXIT-STATUS.md's exit statuses: 0 all succeeded · 1 failed (JSONEventsTests) · 2 invalid usage or
/// manifest · 3 aborted (SignalTests) · 4 all succeeded and a reboot is required.
@Suite("exit status")
struct ExitStatusTests {
    @Test("0 when every update succeeded")
    func allSucceeded() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("ok.yaml", """
            jobs:
              - name: A
                updates:
                  - {id: one, title: One, install: "exit 0"}
                  - {id: two, title: Two, install: [/bin/true]}
              - name: B
                updates:
                  - {id: three, title: Three, install: "echo done"}
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "ok.yaml"], in: folder)

        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("2 jobs, 3 updates: 3 succeeded"))
        #expect(result.summaryExplanation == "exit 0: every update succeeded", "\(result.stdout)")
    }

    @Test("4 when every update succeeded and one requires a reboot")
    func rebootRequired() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("reboot.yaml", """
            jobs:
              - name: Kernel
                updates:
                  - {id: tools, title: Tools, install: "exit 0"}
                  - {id: kernel, title: Kernel, install: "echo reboot-required >&3"}
              - name: Firmware
                updates:
                  - {id: firmware, title: Firmware, install: "exit 0", reboot: always}
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "reboot.yaml"], in: folder)

        #expect(result.status == 4, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("a reboot is required"))
        #expect(result.summaryExplanation == "exit 4: every update succeeded; a reboot is required", "\(result.stdout)")
    }

    @Test("2 for an invalid manifest, with its errors on stderr and nothing run")
    func invalidManifest() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("bad.yaml", """
            jobs:
              - name: A
                updates:
                  - {id: one, title: One, install: "touch ran"}
                  - {id: one, title: Duplicate, install: "touch ran"}
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "bad.yaml"], in: folder)

        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.yaml:5:"), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran")))
    }

    @Test("2 (not 64) for invalid usage", arguments: [
        ["run"],
        ["run", "--concurrency", "0", "--no-history", "any.yaml"],
        ["run", "--plain", "--json", "--no-history", "any.yaml"],
        ["run", "--no-such-option", "any.yaml"],
    ])
    func invalidUsage(arguments: [String]) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("any.yaml", """
            jobs:
              - name: A
                updates:
                  - {id: one, title: One, install: "touch ran"}
            """)

        let result = try await installtop(arguments, in: folder)

        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(!result.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran")))
    }
}
