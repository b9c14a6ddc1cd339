import Foundation
import Testing

/// `installtop restart-services` (rule 32) on a recorded /proc, with a fake `systemctl` on PATH
/// that records its arguments: the right units, those left out, the confirmation.
@Suite("installtop restart-services")
struct RestartServicesCommandTests {
    /// A /proc of three stale processes (nginx.service, sshd.service, one in no service), and a
    /// `systemctl` that appends its arguments to `systemctl.log`; returns the extra environment.
    private func prepare(_ folder: TestFolder) throws -> [String: String] {
        let processes = [(100, "nginx", "0::/system.slice/nginx.service"), (101, "sshd", "0::/system.slice/sshd.service"), (102, "loose", "0::/")]
        for (pid, command, cgroup) in processes {
            try FileManager.default.createDirectory(atPath: folder.file("proc/\(pid)"), withIntermediateDirectories: true)
            try folder.write("proc/\(pid)/comm", command + "\n")
            try folder.write("proc/\(pid)/cgroup", cgroup + "\n")
            try folder.write("proc/\(pid)/maps", "7f00-7f01 r-xp 00000000 fd:01 42 /usr/lib/libssl.so.3 (deleted)\n")
        }
        try FileManager.default.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
        try folder.write("bin/systemctl", "#!/bin/sh\necho \"$*\" >> '\(folder.file("systemctl.log"))'\n", executable: true)
        return ["PATH": folder.file("bin") + ":/usr/bin:/bin"]
    }

    /// The `systemctl restart` calls, in order (each restart is followed by `is-active` checks).
    private func calls(_ folder: TestFolder) -> [String] {
        ((try? String(contentsOfFile: folder.file("systemctl.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("restart ") }
    }

    @Test("the scan's services but the SSH server, one update each; the bare process listed, never killed")
    func scanned() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let environment = try prepare(folder)

        let result = try await installtop(["restart-services", "--yes", "--plain", "--no-history", "--proc", folder.file("proc")],
                                          in: folder, environment: environment)

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(calls(folder) == ["restart nginx.service"])
        #expect(result.stdout.contains("Left out unless named: sshd.service"), "\(result.stdout)")
        #expect(result.stdout.contains("In no service (listed, never killed): 102 loose"), "\(result.stdout)")
        #expect(result.stdout.contains("To restart (systemctl restart): nginx.service"), "\(result.stdout)")
    }

    @Test("a restart that exits 0 but leaves its unit not active: the update fails saying what showed it, exit 1, and the unit stays in the advice")
    func notRunningAfterRestart() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let environment = try prepare(folder)
        // Its restart exits 0 (as redis's did with a stale pid file); the unit then is not active.
        try folder.write("bin/systemctl", """
            #!/bin/sh
            echo "$*" >> '\(folder.file("systemctl.log"))'
            case $1 in is-active) echo failed; exit 3 ;; esac
            """, executable: true)

        let result = try await installtop(["restart-services", "--yes", "--plain", "--no-history", "--proc", folder.file("proc")],
                                          in: folder, environment: environment.merging(["COLUMNS": "1000"]) { $1 })

        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(calls(folder) == ["restart nginx.service"])
        let reason = "restart exited 0, but `systemctl is-active nginx.service` says failed"
        #expect(result.stdout.contains(reason), "the update's reason: \(result.stdout)")
        // The job's restart advice (the summary's Restarts section) still counts it.
        #expect(result.stdout.contains("restart failed: nginx.service (exited with status 1: \(reason))"), "\(result.stdout)")
        #expect(result.stdout.contains("1 restart failed)"), "\(result.stdout)")
        #expect(!result.stdout.contains("0 services to restart"), "\(result.stdout)")
    }

    @Test("named units are restarted, the SSH server too")
    func named() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let environment = try prepare(folder)

        let result = try await installtop(["restart-services", "--yes", "--plain", "--no-history", "--proc", folder.file("proc"),
                                           "sshd.service", "cron.service"], in: folder, environment: environment)

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(calls(folder) == ["restart sshd.service", "restart cron.service"])
    }

    @Test("without --yes off a terminal: the list, nothing restarted, exit 1")
    func notConfirmed() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let environment = try prepare(folder)

        let result = try await installtop(["restart-services", "--plain", "--no-history", "--proc", folder.file("proc")],
                                          in: folder, environment: environment)

        #expect(result.status == 1)
        #expect(result.stdout.contains("To restart (systemctl restart): nginx.service"), "\(result.stdout)")
        #expect(result.stderr.contains("nothing restarted"), "\(result.stderr)")
        #expect(calls(folder).isEmpty)
    }
}
