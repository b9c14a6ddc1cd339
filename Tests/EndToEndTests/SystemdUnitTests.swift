import Foundation
import Testing

/// `installtop serve --systemd-unit`: the unit Documentation/DAEMON.md tells root to use.
@Suite("serve --systemd-unit")
struct SystemdUnitTests {
    @Test("names this binary, root's socket and a state directory, and stops installtop alone first")
    func unit() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let result = try await installtop(["serve", "--systemd-unit"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let binary = try InstalltopBinary.path()
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: binary)) ?? binary
        #expect(lines.contains("ExecStart=\(resolved) serve --socket /run/installtop.sock --history-db /var/lib/installtop/history.sqlite3"),
                "\(result.stdout)")
        #expect(lines.contains("StateDirectory=installtop"))
        #expect(lines.contains("StateDirectoryMode=0700"), "the history must not be readable by other users")
        // A graceful abort needs SIGTERM to reach installtop only (never dpkg or an install script).
        #expect(lines.contains("KillMode=mixed"))
        #expect(lines.contains("WantedBy=multi-user.target"))

        // systemd's own check, where this machine has it.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else { return }
        let unit = folder.file("installtop.service")
        try result.stdout.write(toFile: unit, atomically: true, encoding: .utf8)
        let verify = try await InstalltopProcess(["verify", "--man=no", unit], in: folder, executable: "/usr/bin/systemd-analyze").finish()
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
