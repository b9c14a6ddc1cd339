import Foundation
import Testing

/// `installtop patch --policy FILE --check`: the night's plan and exit 0, or every error of the
/// policy with its position and exit 2. The zone comes from a TZif file the test writes
/// (`TZDIR`), so the machine's tz database does not matter.
@Suite("patch --check")
struct PatchCommandTests {
    /// A TZif version 2 file of UTC: one type, no transitions, footer `UTC0`.
    static let utcZoneInfo: [UInt8] = {
        func header() -> [UInt8] {
            Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
                + [0, 0, 0, 0, /* isstd */ 0, 0, 0, 0, /* leap */ 0, 0, 0, 0, /* times */ 0, 0, 0, 0, /* types */ 0, 0, 0, 1, /* chars */ 0, 0, 0, 4]
        }
        let block: [UInt8] = [0, 0, 0, 0, 0, 0] + Array("UTC".utf8) + [0]
        return header() + block + header() + block + Array("\nUTC0\n".utf8)
    }()

    static let policy = """
        hosts:
          inventory: hosts.ini
        time_zone: UTC
        windows:
          - days: [tue]
            start: "02:00"
            duration: 3h
        waves:
          canary: [web3]
          percent: 34
        gate:
          confirm: 15m
        failure_budget: 1
        """

    func folderWithPolicy(_ policy: String) throws -> TestFolder {
        let folder = try TestFolder()
        _ = try folder.write("hosts.ini", "[web]\nweb[1:10]\n")
        _ = try folder.write("night.yaml", policy)
        try FileManager.default.createDirectory(atPath: folder.file("zoneinfo"), withIntermediateDirectories: true)
        try Data(Self.utcZoneInfo).write(to: URL(fileURLWithPath: folder.file("zoneinfo/UTC")))
        return folder
    }

    @Test("A valid policy prints the next window in its zone and in local time, each wave's hosts, the gate and the budget, and exits 0")
    func plan() async throws {
        let folder = try folderWithPolicy(Self.policy)
        defer { folder.remove() }
        // Tuesday 2026-06-02 00:00 UTC: the window opens in two hours.
        let result = try await installtop(["patch", "--policy", "night.yaml", "--check", "--now", "1780358400"], in: folder,
                                          environment: ["TZDIR": folder.file("zoneinfo"), "TZ": "UTC0"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "night.yaml: OK")
        #expect(lines.contains("hosts: 10 hosts of hosts.ini"), "\(lines)")
        #expect(lines.contains("next window: tuesday 2026-06-02 02:00 (UTC+00:00) to 2026-06-02 05:00 (UTC+00:00) UTC"), "\(lines)")
        #expect(lines.contains("  in local time: Tue 2026-06-02 02:00 UTC to Tue 2026-06-02 05:00 UTC"), "\(lines)")
        #expect(lines.contains("wave 1 (canary, 1 host): web3"), "\(lines)")
        #expect(lines.contains("wave 2 (34%, 4 hosts): web1, web2, web4, web5"), "\(lines)")
        #expect(lines.contains("wave 3 (the rest, 5 hosts): web6, web7, web8, web9, web10"), "\(lines)")
        #expect(lines.contains("gate: each host of a wave armed with --confirm 15m; none reverted and at least one confirmed"), "\(lines)")
        #expect(lines.contains("failure budget: 1 host (1 of 10 hosts may fail, revert or be unreachable; one more stops the night)"), "\(lines)")
        #expect(lines.contains("age: an update is taken at once, a security update at once"), "\(lines)")
        #expect(result.stderr.isEmpty)
    }

    @Test("An invalid policy lists every error as file:line:column and exits 2; without --check too, and nothing runs")
    func errors() async throws {
        let folder = try folderWithPolicy(Self.policy.replacing("start: \"02:00\"", with: "start: noon").replacing("canary: [web3]", with: "canary: [web33]"))
        defer { folder.remove() }
        let result = try await installtop(["patch", "--policy", "night.yaml", "--check"], in: folder, environment: ["TZDIR": folder.file("zoneinfo")])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "night.yaml:6:12: expected a time of day as HH:MM (24-hour clock, such as \"02:30\"); got `noon`",
            "night.yaml:9:12: canary `web33` is not one of the policy's hosts; did you mean `web3`?",
            "2 errors",
        ], "\(result.stderr)")
        #expect(result.stdout.isEmpty)

        let unchecked = try await installtop(["patch", "--policy", "night.yaml", "--state-dir", folder.file("nights")], in: folder,
                                             environment: ["TZDIR": folder.file("zoneinfo")])
        #expect(unchecked.status == 2)
        #expect(unchecked.stderr.hasSuffix("2 errors\n"), "\(unchecked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("nights")))

        let missing = try await installtop(["patch", "--policy", "nope.yaml", "--check"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr == "installtop: nope.yaml: no such file\n", "\(missing.stderr)")
    }

    @Test("Running the night: outside every window the next one is named and nothing is done (exit 8, no stamp), an age gate or not; --status without a stamp exits 8")
    func nightOutsideItsWindow() async throws {
        let folder = try folderWithPolicy(Self.policy + "\nage:\n  updates: 7d\n")
        defer { folder.remove() }
        let environment = ["TZDIR": folder.file("zoneinfo"), "TZ": "UTC0"]
        let state = folder.file("nights")
        // Tuesday 2026-06-02 00:00 UTC: the window opens in two hours.
        let early = try await installtop(["patch", "--policy", "night.yaml", "--state-dir", state, "--now", "1780358400"], in: folder,
                                         environment: environment)
        #expect(early.status == 8, "\(early.stdout)\(early.stderr)")
        #expect(early.stdout == "no window is open: the next opens 2026-06-02 02:00–05:00 UTC; nothing done\n", "\(early.stdout)")
        let stamps = (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []
        #expect(!stamps.contains { $0.hasSuffix(".json") }, "\(stamps)")

        let status = try await installtop(["patch", "--policy", "night.yaml", "--state-dir", state, "--status"], in: folder, environment: environment)
        #expect(status.status == 8)
        #expect(status.stderr.contains("no night of this policy has run here"), "\(status.stderr)")
    }
}
