import Testing

/// `installtop validate FILE`: OK and exit 0, or every error with its position and exit 2.
@Suite("validate")
struct ValidateTests {
    @Test("a good manifest is OK with exit status 0")
    func goodManifest() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("good.yaml", """
            jobs:
              - name: Tools
                updates:
                  - id: jq
                    title: jq 1.6
                    install: [/bin/true]
                  - id: curl
                    title: curl
                    install: "exit 0"
            """)

        let result = try await installtop(["validate", "good.yaml"], in: folder)

        #expect(result.status == 0)
        #expect(result.stdout.contains("OK"))
        #expect(result.stdout.contains("1 job, 2 updates"))
        #expect(result.stderr.isEmpty)
    }

    @Test("a missing manifest is one line without a position, for validate, run and submit")
    func missingManifest() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        for command in [["validate", "nope.yaml"], ["run", "nope.yaml", "--plain", "--no-history"],
                        ["submit", "nope.yaml", "--socket", folder.file("none.sock")]] {
            let result = try await installtop(command, in: folder)
            #expect(result.status == 2)
            #expect(result.stderr == "installtop: nope.yaml: no such file\n", "\(command): \(result.stderr)")
        }
    }

    @Test("a broken manifest lists every error with file:line:column and exits 2")
    func brokenManifest() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("broken.yaml", """
            jobs:
              - name: Kernel
                updates:
                  - id: kernel
                    title: Kernel
                    install: [/bin/true]
                    reboot: no
                    colour: blue
            """)

        let result = try await installtop(["validate", "broken.yaml"], in: folder)

        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let reboot = lines.first { $0.contains("boolean `no`") }
        let unknown = lines.first { $0.contains("unknown key") && $0.contains("colour") }
        #expect(reboot?.hasPrefix("broken.yaml:7:") == true, "stderr: \(result.stderr)")
        #expect(reboot?.contains("expected never, always or may") == true)
        #expect(unknown?.hasPrefix("broken.yaml:8:") == true, "stderr: \(result.stderr)")
        // file:line:column, the column a number too.
        for line in [reboot, unknown].compactMap({ $0 }) {
            let parts = line.split(separator: ":", maxSplits: 3)
            #expect(parts.count == 4 && Int(parts[1]) != nil && Int(parts[2]) != nil, "not file:line:column: \(line)")
        }
        #expect(!result.stdout.contains("OK"))
    }

    @Test("validate, run and submit agree: a missing script relative to the manifest is an error; a name not on PATH a warning")
    func programs() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("missing.yaml", """
            jobs:
              - name: J
                updates:
                  - {id: a, install: [./apply.sh]}
            """)
        for command in [["validate", "missing.yaml"], ["run", "missing.yaml", "--plain", "--no-history"],
                        ["submit", "missing.yaml", "--socket", folder.file("none.sock")]] {
            let result = try await installtop(command, in: folder)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("missing.yaml:4:27: `./apply.sh` does not exist"), "\(command): \(result.stderr)")
        }
        try folder.write("warned.yaml", """
            jobs:
              - name: J
                updates:
                  - {id: a, install: [no-such-program-installtop]}
            """)
        let warned = try await installtop(["validate", "warned.yaml"], in: folder)
        #expect(warned.status == 0 && warned.stdout.contains("OK"), "\(warned.stderr)")
        #expect(warned.stderr.contains("warned.yaml:4:27: warning: `no-such-program-installtop` is not an executable on PATH now"),
                "\(warned.stderr)")
    }
}
