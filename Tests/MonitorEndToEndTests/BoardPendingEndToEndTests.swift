import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// The board's fleet view end to end: namespace hosts with their own sshd, `installtop serve`
/// (keeping a history) and private apt root (`BoardAPTHosts`); the host rows' pending counts
/// against `apt-get -s upgrade` in each root after `P` refreshes the host's lists, then `h` and
/// `u` on one host undoing its run there.
@Suite("The board's pending snapshots, history and undo end to end", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct BoardPendingEndToEndTests {
    @Test("two hosts: rows up to date, P refreshes each host's lists and its row shows apt-get -s upgrade's counts; h then u on h2 undoes its run there (dpkg's state after), and its row follows")
    func pendingHistoryAndUndo() async throws {
        let hosts = try BoardAPTHosts(count: 2, history: true)
        defer { hosts.tearDown() }
        // No postinst waits: every gate is open from the start.
        for host in 1...2 { hosts.openGate(onHost: host) }
        try #require(await hosts.waitUntilServing(), "\(hosts.engines.map(\.stderr))")
        try hosts.submitInstall("lab-d", onHost: 1, name: "Lab of h1")
        try hosts.submitInstall("lab-b", onHost: 2, name: "Lab of h2")
        for host in 1...2 {
            #expect(await EndToEndFolder.eventually { (try? hosts.fleet.ownJobs(onHost: host).first?["state"] as? String) == "succeeded" },
                    "h\(host): \((try? hosts.fleet.ownJobs(onHost: host)) ?? [])")
        }
        // Newer versions in each host's security archive, which its lists learn only from a refresh.
        try hosts.root(1).stageSecurity([TestPackage(name: "lab-a", version: "2.0"), TestPackage(name: "lab-c", version: "2.0")])
        try hosts.root(2).stageSecurity([TestPackage(name: "lab-a", version: "2.0"), TestPackage(name: "lab-c", version: "2.0")])

        let tmux = try BoardScreen.attach(hosts.names, fleet: hosts.fleet, folder: hosts.folder, width: 200, height: 40)
        defer { tmux.close() }
        await tmux.waitForScreen("both hosts up to date, their jobs succeeded") { screen in
            (1...2).allSatisfy { Self.row("h\($0)", in: screen).contains("up to date") && Self.row("h\($0)", in: screen).contains("succeeded") }
        }

        tmux.send("Home")
        tmux.send("P")
        tmux.send("Down")
        tmux.send("P")
        // What apt itself says once the refresh jobs have brought the lists up to date.
        var expected: [String] = []
        let rows = await tmux.waitForScreen("each host's row with its pending counts") { screen in
            expected = (1...2).map { Self.aptCounts(hosts.root($0)) }
            return (1...2).allSatisfy { host in
                let row = Self.row("h\(host)", in: screen)
                return row.contains(" \(expected[host - 1]) ")
            }
        }
        #expect(rows != nil, "\(tmux.capture())")
        #expect(expected == ["2 pending · 2 security", "1 pending · 1 security"], "apt-get -s upgrade in each root")

        // F then o: the pending hosts, the one with most pending first; the selection stays on h2.
        tmux.send("F")
        tmux.send("F")
        tmux.send("o")
        tmux.send("o")
        let sorted = await tmux.waitForScreen("the pending hosts by pending count, said in the header") { screen in
            screen.contains("showing pending · sorted by pending")
                && (screen.range(of: "▸ h1 ").map { h1 in screen.range(of: "▸ h2 ").map { h1.lowerBound < $0.lowerBound } ?? false } ?? false)
        }
        #expect(sorted != nil, "\(tmux.capture())")

        tmux.send("h")
        await tmux.waitForScreen("h2's history, its entries loaded") { $0.contains(/History of h2 · \d+ entr(y|ies)/) && $0.contains("lab-b") }
        tmux.send("Tab")
        let runs = await tmux.waitForScreen("h2's runs") { screen in
            screen.contains("History of h2 · job runs") && HistoryScreen.runRows(in: screen).contains { $0.contains("Lab of h2") }
        }
        #expect(runs != nil, "\(tmux.capture())")
        // The newest run may be the refresh (not undoable): then the apt run is the one under it.
        if let runs, HistoryScreen.runRows(in: runs).first?.contains("Refresh apt's lists") == true { tmux.send("Down") }
        tmux.send("u")
        let question = try #require(await tmux.waitForScreen("the question naming h2") { $0.contains("Undo run ") && $0.contains(" on h2?") },
                                    "\(tmux.capture())")
        let run = try #require(Self.runNumber(in: question), "\(question)")
        #expect(try hosts.root(2).states()["lab-b"]?.status == "ii", "nothing before the yes")
        tmux.send("y")
        let plan = await tmux.waitForScreen("the undo's plan dialog naming h2") { $0.contains("undo \(run)") && $0.contains("on h2") }
        #expect(plan != nil, "\(tmux.capture())")
        tmux.send("y")
        // The undo job ended on h2's engine (dpkg done), then its root: nothing of the run installed.
        let ended = await EndToEndFolder.eventually {
            ((try? hosts.fleet.ownJobs(onHost: 2)) ?? []).contains {
                ($0["name"] as? String)?.contains("undo \(run)") == true && $0["state"] as? String == "succeeded"
            }
        }
        #expect(ended, "\((try? hosts.fleet.ownJobs(onHost: 2)) ?? [])")
        let states = try hosts.root(2).states()
        // Removed (dpkg forgets a removed package with no conffiles): neither is installed now.
        #expect(states["lab-a"]?.status != "ii" && states["lab-b"]?.status != "ii", "\(states)")
        #expect(try hosts.root(2).audit().isEmpty)
        #expect(try hosts.root(1).states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-a", "lab-b", "lab-c", "lab-d"],
                "h1 untouched")
        // After the undo job the board asks h2 again: nothing of lab-a left to upgrade.
        let after = await tmux.waitForScreen("h2's row after its undo job") { Self.row("h2", in: $0).contains("up to date") }
        #expect(after != nil, "\(tmux.capture())")
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { hosts.folder.read("rc") != nil }, "\(tmux.capture())")
    }

    /// Host `host`'s row up to the jobs pane's border (the updates pane shares the line).
    private static func row(_ host: String, in screen: String) -> String {
        let line = BoardScreen.row(host, in: screen)
        guard let start = line.firstIndex(where: { $0 == "▸" || $0 == "▾" }) else { return "" }
        let rest = line[start...]
        return String(rest[..<(rest.firstIndex(of: "│") ?? rest.endIndex)]).trimmingCharacters(in: .whitespaces)
    }

    /// `N pending · S security` as `apt-get -s upgrade` in `root` says it (S: the `Inst` lines
    /// from a security origin).
    private static func aptCounts(_ root: APTTestRoot) -> String {
        let output = (try? root.aptGet(["-s", "upgrade"]).stdout) ?? ""
        let installs = output.split(separator: "\n").filter { $0.hasPrefix("Inst ") }
        return "\(installs.count) pending · \(installs.filter { $0.contains("-security") }.count) security"
    }

    /// N of the question `Undo run N on h2?` on `screen`.
    private static func runNumber(in screen: String) -> Int? {
        guard let start = screen.range(of: "Undo run ") else { return nil }
        return Int(screen[start.upperBound...].prefix { $0.isNumber })
    }
}
