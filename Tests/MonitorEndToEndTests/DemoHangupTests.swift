import Foundation
import Testing
import TestProcessSupport

/// `installtop demo` in a terminal that closes while it quits: its temporary folder and private
/// apt root (3.5 MB each) are removed on every way out.
@Suite("Demo end to end: hangups", .serialized)
struct DemoHangupTests {
    @Test("SIGHUPs right after q and y (the terminal closed) still remove the demo's folder and apt root")
    func hangupWhileQuittingRemovesTheFiles() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let temporary = folder.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let binary = try EndToEndFolder.binary()
        // `exec`: the pid the shell writes is installtop's. The demo at a fifth of its pace: on a
        // loaded CI machine it once ran to its end before the test got to `q`.
        let tmux = try TmuxSession(home: folder.url, command:
            "echo $$ > '\(folder.path("pid"))'; INSTALLTOP_DEMO_SPEED=0.2 TMPDIR='\(temporary)' exec '\(binary)' demo --no-history")
        defer { tmux.close() }
        await tmux.waitForScreen("a running update with a bar") { $0.contains("▶") && $0.contains("█") }
        let pid = try #require(folder.read("pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        let started = try #require(Self.startTime(of: pid), "installtop is not running")
        #expect(Self.demoFiles(in: temporary).count >= 2, "the demo's folder and apt root: \(Self.demoFiles(in: temporary))")

        tmux.send("q")
        await tmux.waitForScreen("the quit question") { $0.contains("Quit and abort") }
        tmux.send("y")
        // A hangup after another until installtop is gone, so that some land after the monitor
        // has ended, while the results are printed and the files removed. Only the process that
        // started at `started` is signalled: once it is gone its pid is never signalled again.
        let ended = await EndToEndFolder.eventually {
            guard Self.startTime(of: pid) == started else { return true }
            kill(pid, SIGHUP)
            return false
        }
        #expect(ended, "installtop did not end")
        #expect(Self.demoFiles(in: temporary).isEmpty, "left behind: \(Self.demoFiles(in: temporary))")
    }

    /// What the demo writes into `$TMPDIR`: its folder and its apt root.
    private static func demoFiles(in temporary: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).sorted()
    }

    /// The start time of `pid` (field 22 of /proc/PID/stat), `nil` once it has exited (a
    /// zombie counts as gone: it can no longer remove anything).
    private static func startTime(of pid: pid_t) -> Substring? {
        guard let fields = ProcessStat.fields(in: "/proc/\(pid)"), fields.count > 19, fields[0] != "Z" else { return nil }
        return fields[19]
    }
}
