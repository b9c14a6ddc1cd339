import APTTestSupport
import Foundation
import Testing

/// While apt makes the plan (1–5 s on a real system) the terminal says so: the screen is never
/// blank before the monitor opens. The host's packages are never touched.
@Suite("installtop apt: the planning line", .serialized)
struct APTPlanningEndToEndTests {
    @Test("`apt install` says it is planning before the monitor opens; the line stays above the summary")
    func planningLineBeforeTheMonitor() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base")])
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let tmux = try TmuxSession(width: 110, height: 30, home: folder.url, command:
            "'\(binary)' apt install lab-base --no-history --apt-config '\(apt.configuration)'; \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("the plan's question") { $0.contains("Start apt install lab-base") }
        tmux.send("y")
        await tmux.waitForScreen("the package installed") { $0.contains("succeeded") && $0.contains("0 running") }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        // With the scrollback: the restart advice after the summary is machine-wide, and the
        // processes other tests leave running a deleted library once made it push the planning
        // line off a 30-line screen.
        #expect(await EndToEndFolder.eventually { tmux.captureWithScrollback().contains("installtop: apt install lab-base: planning…") },
                "the normal screen back, with the planning line:\n\(tmux.captureWithScrollback())")
        let after = tmux.captureWithScrollback()
        let lines = after.split(separator: "\n").map(String.init)
        let planning = try #require(lines.firstIndex { $0.contains("planning…") })
        let summary = lines.firstIndex { $0.contains("lab-base") && !$0.contains("planning…") }
        #expect(summary.map { $0 > planning } == true, "the planning line comes first:\n\(after)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
