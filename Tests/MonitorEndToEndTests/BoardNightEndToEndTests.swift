import APTTestSupport
import Foundation
import Glibc
import Testing

/// `installtop attach --hosts … --night POLICY` in tmux without a network: a real night of the
/// policy ran first (`installtop patch`, its hosts' ssh failing, so every host failed and the
/// night stopped), then the board on the same hosts (a stand-in ssh bridging to quiet local
/// engines) follows that night's stamp: where the night is in the header, a host's step in its
/// pane, and no night once the stamp is gone.
@Suite("The board follows a patch night, end to end")
struct BoardNightEndToEndTests {
    @Test("after a night whose hosts could not be reached, the board says it stopped and each host's step with ssh's words; the stamp removed, the night leaves the header")
    func boardFollowsTheNight() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let quietAPT = try APTTestRoot(folder: folder.path("quiet-apt"))
        var engines: [InstalltopChild] = []
        defer { engines.removeAll() }
        engines = try await folder.startEngines(["quiet"], apt: quietAPT)

        // A window open now (UTC, a minute's rounding aside) and three hosts in one wave.
        var opened = time(nil) - 3600
        opened -= opened % 60
        var parts = tm()
        gmtime_r(&opened, &parts)
        try folder.write("hosts.ini", "h1\nh2\nh3\n")
        try folder.write("night.yaml", """
            hosts: {inventory: hosts.ini}
            time_zone: UTC
            windows: [{days: daily, start: "\(String(format: "%02d:%02d", parts.tm_hour, parts.tm_min))", duration: 3h}]
            gate: {confirm: 10m}
            failure_budget: 5
            packages: all
            """)
        // The night's ssh reaches no host; the board's bridges to the quiet engine.
        for (name, body) in [("night-bin", "echo \"ssh: Could not resolve hostname $2: Name or service not known\" >&2; exit 255"),
                             ("board-bin", "exec '\(binary)' bridge --socket '\(folder.path("quiet.sock"))'")] {
            try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
            try folder.write("\(name)/ssh", "#!/bin/sh\nwhile [ \"$#\" -gt 0 ] && [ \"$1\" != \"--\" ]; do shift; done\n\(body)\n", executable: true)
        }
        let patch = try InstalltopChild(["patch", "--policy", folder.path("night.yaml"), "--state-dir", folder.path("nights")], in: folder,
                                        environment: ["PATH": folder.path("night-bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        let night = (status: await patch.finish(), stdout: patch.stdout, stderr: patch.stderr)
        #expect(night.status == 0 || night.status == 1, "\(night.stdout)\(night.stderr)")
        #expect(night.stdout.contains("h1: failed: nothing queued"), "\(night.stdout)\(night.stderr)")

        let command = "PATH='\(folder.path("board-bin"))':\"$PATH\" '\(binary)' attach --hosts '\(folder.path("hosts.ini"))'"
            + " --night '\(folder.path("night.yaml"))' --state-dir '\(folder.path("nights"))'"
            + " 2> '\(folder.path("attach.err"))'; \(folder.exitStatus(to: "rc")); sleep 3600"
        let tmux = try TmuxSession(width: 160, height: 30, home: folder.url, command: command)
        defer { tmux.close() }
        let shown = await tmux.waitForScreen("the night on the board") { screen in
            screen.contains("3 hosts") && screen.contains("night: ") && screen.contains("h1: idle, no jobs")
                && screen.contains("night: failed (wave 1): nothing queued")
        }
        let header = shown?.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("night: stopped") || header.contains("night: finished"), "\(shown ?? tmux.capture())")
        // ssh's words whole, wrapped in the pane.
        #expect(shown?.contains("Could not resolve") == true && shown?.contains("service not known") == true,
                "ssh's words in h1's step: \(shown ?? "")")

        // The stamp goes (a new window's night would write another): the board says no night.
        let stamps = try FileManager.default.contentsOfDirectory(atPath: folder.path("nights")).filter { $0.hasSuffix(".json") }
        #expect(stamps.count == 1, "\(stamps)")
        for stamp in stamps { try FileManager.default.removeItem(atPath: folder.path("nights/\(stamp)")) }
        await tmux.waitForScreen("no night once its stamp is gone") { !$0.contains("night: ") && $0.contains("3 hosts") }

        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(folder.read("attach.err") ?? "")")
    }
}
