import EngineWire
import Foundation
import InstallEngine
import RestartScan
import TerminalUI
import Testing

@testable import Monitor

/// The board's fleet view on values (no terminal, a manual clock): each host's pending
/// snapshot on its row, the hosts filtered (`F`) and sorted (`o`) by it, `P`, and `h`/`u` on a
/// host asking that host's engine.
@Suite("Monitor board: pending, filters, sorts, a host's history")
struct MonitorBoardPendingTests {
    private func board(_ hosts: [String], width: Int = 120, height: Int = 30) -> Scenario {
        var scenario = Scenario(width: width, height: height)
        _ = scenario.state.handle(.host(.hosts(hosts)))
        for host in hosts {
            _ = scenario.state.handle(.host(.connecting(host)))
            _ = scenario.state.handle(.host(.queueReplaced(host)))
        }
        return scenario
    }

    /// A snapshot of `pending` packages, `security` of them from a security origin, lists
    /// updated `listsAge` seconds before `now`, and a newer kernel waiting when `kernel`.
    private func snapshot(_ pending: Int, security: Int = 0, listsAge: TimeInterval = 6 * 86_400, kernel: String? = nil,
                          now: Date) -> PendingSnapshot {
        let packages = (0..<pending).map { index in
            PendingPackage(name: "pkg\(index)", oldVersion: "1.0", newVersion: "1.1",
                           origin: index < security ? "Debian-Security:12/stable-security" : "Debian:12/stable")
        }
        let restarts = RestartAdvice(rebootReasons: kernel.map { [.newerKernel(running: "6.1.0-20-amd64", installed: $0)] } ?? [])
        return PendingSnapshot(computedAt: now, packages: packages, listsUpdatedAt: now.addingTimeInterval(-listsAge), restarts: restarts)
    }

    private func send(_ scenario: inout Scenario, _ host: String, _ snapshot: PendingSnapshot) {
        _ = scenario.state.handle(.host(.pending(host, snapshot, computing: false)))
    }

    /// Host `host`'s row on the screen, up to the jobs pane's border.
    private func row(_ host: String, in screen: String) -> String {
        let line = screen.split(separator: "\n").first { $0.contains("▸ \(host) ") || $0.contains("▾ \(host) ") } ?? ""
        guard let start = line.firstIndex(where: { $0 == "▸" || $0 == "▾" }) else { return "" }
        let rest = line[line.index(after: start)...]
        return String(line[start...(rest.firstIndex(of: "│") ?? line.index(before: line.endIndex))])
    }

    private func hostOrder(_ scenario: Scenario) -> [String] {
        scenario.state.boardRows.compactMap { row in
            if case .host(let name) = row { return name }
            return nil
        }
    }

    @Test("each host's row shows its pending snapshot: counts, the waiting kernel, old lists, up to date, the problem; nothing before one comes; the updates pane says it whole")
    func hostRowsShowPending() throws {
        // The board's jobs pane is at most 72 columns wide: a row shows what fits, the most telling first.
        var scenario = board(["web1", "web2", "db1", "old"], width: 200)
        send(&scenario, "web1", snapshot(12, security: 3, kernel: "6.1.0-28-amd64", now: scenario.now))
        send(&scenario, "web2", snapshot(0, listsAge: 2 * 3600, now: scenario.now))
        send(&scenario, "db1", .failed("E: Could not open lock file\nmore", at: scenario.now))
        let screen = scenario.screen()
        #expect(row("web1", in: screen).contains("web1 12 pending · 3 security · reboot: 6.1.0-28-amd64"), "\(screen)")
        #expect(scenario.state.pendingText(ofHost: "web1") == "12 pending · 3 security · reboot: 6.1.0-28-amd64 · lists 6 days old")
        #expect(screen.contains("12 pending · 3 security · lists 6 days old · reboot: 6.1.0-28-amd64"), "the updates pane: \(screen)")
        // Its packages too, without pressing U.
        #expect(screen.contains("pkg0 1.0 → 1.1 security") && screen.contains("pkg4 1.0 → 1.1"), "the updates pane: \(screen)")
        #expect(row("web2", in: screen).contains("up to date ") && !row("web2", in: screen).contains("lists"), "\(screen)")
        #expect(row("db1", in: screen).contains("failed: E: Could not open lock file"), "\(screen)")
        #expect(!row("db1", in: screen).contains("more"))
        // An engine too old for `pending` sent none: its row says idle, no error.
        #expect(row("old", in: screen).contains("idle") && !row("old", in: screen).contains("pending"), "\(screen)")

        // A completed job's row shows the snapshot after it, its result on the right.
        let board = scenario.state.queue.jobs.map(\.id).max().map { $0 + 1 } ?? 1
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: "web2", job: 1))))
        let job = scenario.queue("Monthly patching", ["openssl"])
        scenario.run(job)
        scenario.advance(86_400)
        let after = row("web2", in: scenario.screen())
        #expect(after.contains("web2 up to date · lists") && after.contains("succeeded") && !after.contains("Monthly"), "\(scenario.screen())")
        #expect(scenario.state.pendingText(ofHost: "web2") == "up to date · lists 1 day old")

        // Its engine computes a newer one (a change of the root): the row says so, with the age of what it shows.
        send(&scenario, "db1", snapshot(1, now: scenario.now))
        _ = scenario.state.handle(.host(.pending("db1", nil, computing: true)))
        #expect(scenario.state.pendingText(ofHost: "db1") == "1 pending · lists 6 days old · recomputing")
        // The age on the row counts by itself: a tick is due within the second, with no event.
        let due = try #require(scenario.state.nextTickTime)
        #expect(due.timeIntervalSince(scenario.now) <= 1, "\(due) \(scenario.now)")
        #expect(scenario.state.handle(.tick(due)).contains(.redraw), "the tick redraws the row, with no job running anywhere")
        scenario.advance(12)
        #expect(scenario.state.pendingText(ofHost: "db1") == "1 pending · lists 6 days old · recomputing (shown: 12s old)")
        _ = scenario.state.handle(.host(.pending("db1", snapshot(0, now: scenario.now), computing: false)))
        #expect(scenario.state.pendingText(ofHost: "db1")?.hasPrefix("up to date") == true)
    }

    @Test("F lists up to date, pending, security pending, reboot, failed and unreachable hosts in turn, saying so in the header; the selection moves to a listed host")
    func filters() {
        var scenario = board(["web1", "web2", "web3", "db1", "db2"])
        send(&scenario, "web1", snapshot(0, now: scenario.now))
        send(&scenario, "web2", snapshot(4, now: scenario.now))
        send(&scenario, "web3", snapshot(7, security: 2, kernel: "6.1.0-28-amd64", now: scenario.now))
        let board = scenario.state.queue.jobs.map(\.id).max().map { $0 + 1 } ?? 1
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: "db1", job: 1))))
        scenario.run(scenario.queue("Upgrade", ["jq"]), codes: [.failed])
        _ = scenario.state.handle(.host(.unreachable("db2", reason: "ssh: connect to host db2 port 22: No route to host",
                                                      retryAt: scenario.now.addingTimeInterval(4))))
        scenario.press(.home)
        #expect(scenario.state.selectedBoardRow == .host("web1"))

        let expected: [(String, [String])] = [
            ("up to date", ["web1"]), ("pending", ["web2", "web3"]), ("security pending", ["web3"]), ("reboot", ["web3"]),
            ("failed", ["db1"]), ("unreachable", ["db2"]),
        ]
        for (title, hosts) in expected {
            scenario.press(.character("F"))
            #expect(hostOrder(scenario) == hosts, "\(title)")
            #expect(scenario.screen().split(separator: "\n").first?.contains("showing \(title)") == true, "\(scenario.screen())")
            #expect(scenario.state.selectedHost == hosts.first)
        }
        scenario.press(.character("F"))
        #expect(hostOrder(scenario) == ["web1", "web2", "web3", "db1", "db2"])
        #expect(scenario.screen().split(separator: "\n").first?.contains("showing") == false)
        #expect(scenario.state.status?.text == "Showing every host")
    }

    @Test("o sorts by name, by pending count, security first, then as given; the selection stays on its host and ↓ goes to the row under it")
    func sortsKeepTheSelection() {
        var scenario = board(["web2", "db1", "web1", "none"])
        send(&scenario, "web2", snapshot(3, security: 3, now: scenario.now))
        send(&scenario, "db1", snapshot(9, security: 1, now: scenario.now))
        send(&scenario, "web1", snapshot(5, now: scenario.now))
        scenario.press(.home, .down)
        #expect(scenario.state.selectedBoardRow == .host("db1"))

        scenario.press(.character("o"))
        #expect(hostOrder(scenario) == ["db1", "none", "web1", "web2"])
        #expect(scenario.state.selectedBoardRow == .host("db1"))
        #expect(scenario.screen().split(separator: "\n").first?.contains("sorted by name") == true)
        scenario.press(.character("o"))
        #expect(hostOrder(scenario) == ["db1", "web1", "web2", "none"])
        scenario.press(.character("o"))
        #expect(hostOrder(scenario) == ["web2", "db1", "web1", "none"])
        #expect(scenario.state.selectedBoardRow == .host("db1"))
        scenario.press(.down)
        #expect(scenario.state.selectedBoardRow == .host("web1"))
        scenario.press(.character("o"))
        #expect(hostOrder(scenario) == ["web2", "db1", "web1", "none"])
        #expect(scenario.state.selectedBoardRow == .host("web1"))

        // A snapshot that changes the order leaves the selection where it was.
        scenario.press(.character("o"), .character("o"))
        #expect(hostOrder(scenario) == ["db1", "web1", "web2", "none"])
        send(&scenario, "none", snapshot(40, now: scenario.now))
        #expect(hostOrder(scenario) == ["none", "db1", "web1", "web2"])
        #expect(scenario.state.selectedBoardRow == .host("web1"))
    }

    @Test("P refreshes the selected host's lists through its engine; refused for an unreachable host")
    func refreshTheSelectedHost() {
        var scenario = board(["web1", "web2"])
        scenario.press(.end)
        #expect(Scenario.commands(scenario.press(.character("P"))) == [.refreshOnHost(host: "web2")])
        #expect(scenario.state.status?.text == "Refreshing apt's lists on web2…")
        _ = scenario.state.handle(.host(.unreachable("web2", reason: "ssh: Connection refused", retryAt: scenario.now.addingTimeInterval(4))))
        #expect(Scenario.commands(scenario.press(.character("P"))).isEmpty)
        #expect(scenario.state.status?.text.hasPrefix("web2 is unreachable") == true)
    }

    @Test("h on a host asks that host's history, titled with its name; u on a run asks naming the host, y undoes it there; a refusal is shown with the host")
    func historyAndUndoOnAHost() {
        var scenario = board(["web1", "web2"])
        let board = scenario.state.queue.jobs.map(\.id).max().map { $0 + 1 } ?? 1
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: "web2", job: 4))))
        scenario.run(scenario.queue("Upgrade", ["jq"]))
        scenario.press(.end, .right, .down)
        #expect(scenario.state.selectedBoardRow == .job(board))

        // From a job row of web2: web2's history.
        #expect(Scenario.commands(scenario.press(.character("h"))) == [.loadHistoryOnHost(host: "web2", limit: HistoryView.rowLimit)])
        #expect(scenario.screen().contains("History of web2"), "\(scenario.screen())")
        // Another host's answer never lands in web2's view.
        _ = scenario.state.handle(.host(.history("web1", .rows([HistoryRow(date: scenario.now, resultCode: .succeeded, updateID: "x",
                                                                                 title: "from web1", jobName: "Tools")]))))
        #expect(!scenario.screen().contains("from web1"))
        #expect(Scenario.commands(scenario.press(.tab)) == [.loadJobRunsOnHost(host: "web2", limit: HistoryView.rowLimit),
                                                            .loadShellRuns(host: "web2", limit: HistoryView.rowLimit)])
        let runs = [JobRunRow(id: 7, date: scenario.now, kind: "apt", name: "apt upgrade · 1 to upgrade", resultCode: .succeeded,
                              packages: ["jq"])]
        _ = scenario.state.handle(.host(.jobRuns("web1", .rows([JobRunRow(id: 9, date: scenario.now, kind: "apt", name: "web1's run",
                                                                           resultCode: .succeeded)]))))
        #expect(!scenario.screen().contains("web1's run"))
        _ = scenario.state.handle(.host(.jobRuns("web2", .rows(runs))))
        #expect(scenario.screen().contains("apt upgrade · 1 to upgrade"), "\(scenario.screen())")

        #expect(Scenario.commands(scenario.press(.character("u"))).isEmpty)
        #expect(scenario.screen().contains("Undo run 7 on web2?"), "\(scenario.screen())")
        #expect(Scenario.commands(scenario.press(.character("n"))).isEmpty)
        #expect(scenario.state.overlay == nil)

        scenario.press(.character("h"), .tab)
        _ = scenario.state.handle(.host(.jobRuns("web2", .rows(runs))))
        scenario.press(.character("u"))
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.undoOnHost(host: "web2", run: 7)])
        #expect(scenario.state.status?.text == "Planning the undo of run 7 on web2…")
        // The link posts a refusal with the host's name and its engine's reason.
        _ = scenario.state.handle(.commandResult("web2: run 7 cannot be undone: jq changed since (1.7 now)"))
        #expect(scenario.screen().contains("web2: run 7 cannot be undone: jq changed since (1.7 now)"), "\(scenario.screen())")
    }

    @Test("h on an unreachable host says so and asks nothing")
    func historyOfAnUnreachableHost() {
        var scenario = board(["web1"])
        _ = scenario.state.handle(.host(.unreachable("web1", reason: "ssh: Connection refused", retryAt: scenario.now.addingTimeInterval(4))))
        #expect(Scenario.commands(scenario.press(.character("h"))).isEmpty)
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text.hasPrefix("web1 is unreachable") == true)
    }
}

extension MonitorBoardPendingTests {
    @Test("a narrow board keeps what each idle host would upgrade, the most telling first: the counts, not the word idle")
    func narrowRows() {
        for (width, height) in [(80, 24), (60, 16)] {
            var scenario = board(["web-frontend-01.example.org", "db2", "cache3"], width: width, height: height)
            _ = scenario.state.handle(.host(.pending("web-frontend-01.example.org", snapshot(12, security: 3, kernel: "6.1.0-28-amd64", now: scenario.now), computing: false)))
            _ = scenario.state.handle(.host(.pending("db2", snapshot(0, listsAge: 60, now: scenario.now), computing: false)))
            let screen = scenario.screen()
            let rows = screen.split(separator: "\n").map(String.init)
            #expect(rows.contains { $0.contains("▸ web-fr") && $0.contains("12 pending") }, "\(width) columns:\n\(screen)")
            #expect(rows.contains { $0.contains("▸ db2") && $0.contains("up to date") }, "\(width) columns:\n\(screen)")
            #expect(rows.contains { $0.contains("▸ cache3") && $0.contains("idle") }, "no snapshot yet: idle")
        }
    }
}
