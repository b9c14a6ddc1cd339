import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The board's `s`: a shell on the selected host, asked of the runtime as an effect.
@Suite("Monitor board: a shell on a host")
struct MonitorBoardShellTests {
    private func board(_ hosts: [String]) -> Scenario {
        var scenario = Scenario(width: 100, height: 30)
        _ = scenario.state.handle(.host(.hosts(hosts)))
        for host in hosts {
            _ = scenario.state.handle(.host(.connecting(host)))
            _ = scenario.state.handle(.host(.queueReplaced(host)))
        }
        return scenario
    }

    @Test("s on a host's row, or on one of its jobs, opens a shell on that host; an unreachable host too (its ssh says why)")
    func shellOnTheSelectedHost() {
        var scenario = board(["web1", "web2"])
        #expect(Scenario.commands(scenario.press(.character("s"))) == [.openShell(host: "web1")])
        let board = scenario.state.queue.jobs.map(\.id).max().map { $0 + 1 } ?? 1
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: "web2", job: 4))))
        scenario.run(scenario.queue("Upgrade", ["jq"]))
        scenario.press(.end, .right, .down)
        #expect(scenario.state.selectedBoardRow == .job(board))
        #expect(Scenario.commands(scenario.press(.character("s"))) == [.openShell(host: "web2")])
        _ = scenario.state.handle(.host(.unreachable("web2", reason: "ssh: Connection refused", retryAt: scenario.now.addingTimeInterval(4))))
        #expect(Scenario.commands(scenario.press(.character("s"))) == [.openShell(host: "web2")])
    }

    @Test("s is the board's: the local monitor's s does nothing, and the board's help lists it")
    func onlyOnTheBoard() {
        var local = Scenario(width: 100, height: 30)
        #expect(Scenario.commands(local.press(.character("s"))).isEmpty)
        #expect(MonitorKeyMap.binding(for: .character("s"), attached: true, board: true)?.action == .openShell)
        #expect(MonitorKeyMap.binding(for: .character("s"), attached: true, board: false) == nil)
        #expect(MonitorKeyMap.binding(for: .character("c"), attached: true, board: true)?.action == .cleanUpSelectedJob)
        let help = board(["web1"]).state.keyHelp
        #expect(help.contains { $0.keys == "s" && $0.action.hasPrefix("a shell on the selected host") })
    }

    @Test("h on a host, Tab: the board's shells on it come from the operator's history and are listed among the host's runs by date; Enter plays one, u says there is nothing to undo")
    func shellsInTheHostsHistory() {
        var scenario = board(["web1", "web2"])
        scenario.press(.character("h"))
        #expect(Scenario.commands(scenario.press(.tab)) == [.loadJobRunsOnHost(host: "web1", limit: HistoryView.rowLimit),
                                                            .loadShellRuns(host: "web1", limit: HistoryView.rowLimit)])
        let now = scenario.now
        let hostRuns = [JobRunRow(id: 7, date: now.addingTimeInterval(-60), kind: "apt", name: "apt upgrade · 1 to upgrade", resultCode: .succeeded),
                        JobRunRow(id: 5, date: now.addingTimeInterval(-3600), kind: "apt", name: "older apt run", resultCode: .succeeded)]
        let shells = [JobRunRow(id: 3, date: now.addingTimeInterval(-600), kind: "shell", name: "shell on web1", resultCode: .succeeded,
                                notUndoableBecause: "a shell on a host changes nothing installtop can put back: installtop replay 3 plays it")]
        // Another host's shells never land in web1's view.
        _ = scenario.state.handle(.shellRunsLoaded(host: "web2", [JobRunRow(id: 9, date: now, kind: "shell", name: "shell on web2",
                                                                            resultCode: .succeeded)]))
        _ = scenario.state.handle(.shellRunsLoaded(host: "web1", shells))
        _ = scenario.state.handle(.host(.jobRuns("web1", .rows(hostRuns))))
        guard case .history(let view)? = scenario.state.overlay else {
            Issue.record("the history view closed")
            return
        }
        #expect(view.visibleRuns.map(\.id) == [7, 3, 5])
        let screen = scenario.screen()
        #expect(screen.contains("shell on web1") && !screen.contains("shell on web2"), "\(screen)")
        #expect(screen.contains("Enter play"), "\(screen)")

        // On the apt run, Enter says what it is for.
        #expect(Scenario.commands(scenario.press(.enter)).isEmpty)
        #expect(scenario.state.status?.text == "Enter plays a shell's recording (a run of kind shell); u undoes a run")
        scenario.press(.down)
        #expect(Scenario.commands(scenario.press(.character("u"))).isEmpty)
        #expect(scenario.state.status?.text == "run 3 cannot be undone: a shell on a host changes nothing installtop can put back: installtop replay 3 plays it")
        #expect(Scenario.commands(scenario.press(.enter)) == [.replayShell(run: 3)])
        #expect(scenario.state.overlay != nil, "the view stays open for the next one")
    }

    @Test("A host whose engine keeps no history still lists the board's shells on it")
    func shellsWithoutTheHostsHistory() {
        var scenario = board(["web1"])
        scenario.press(.character("h"), .tab)
        _ = scenario.state.handle(.host(.jobRuns("web1", .unavailable("history is off (--no-history)"))))
        #expect(scenario.screen().contains("history is off (--no-history)"))
        _ = scenario.state.handle(.shellRunsLoaded(host: "web1", [JobRunRow(id: 3, date: scenario.now, kind: "shell", name: "shell on web1",
                                                                            resultCode: .failed)]))
        let screen = scenario.screen()
        #expect(screen.contains("shell on web1") && !screen.contains("history is off"), "\(screen)")
        #expect(Scenario.commands(scenario.press(.enter)) == [.replayShell(run: 3)])
    }

    @Test("A shell kept on both sides is listed once, the board's, which Enter plays; one only the host keeps says where to play it")
    func shellKeptOnBothSides() {
        var scenario = board(["web1"])
        scenario.press(.character("h"), .tab)
        let start = scenario.now.addingTimeInterval(-600)
        _ = scenario.state.handle(.host(.jobRuns("web1", .rows([
            JobRunRow(id: 7, date: start.addingTimeInterval(0.0004), kind: "shell", name: "shell on web1", resultCode: .succeeded),
            JobRunRow(id: 5, date: start.addingTimeInterval(-3600), kind: "shell", name: "shell on web1", resultCode: .succeeded),
        ]))))
        _ = scenario.state.handle(.shellRunsLoaded(host: "web1", [JobRunRow(id: 3, date: start, kind: "shell", name: "shell on web1",
                                                                            resultCode: .succeeded)]))
        guard case .history(let view)? = scenario.state.overlay, case .rows(let rows) = view.shownRuns else {
            Issue.record("no runs shown")
            return
        }
        #expect(rows.map(\.id) == [3, 5], "the host's copy of run 3 is not listed again")
        #expect(Scenario.commands(scenario.press(.enter)) == [.replayShell(run: 3)])
        scenario.press(.down)
        #expect(Scenario.commands(scenario.press(.enter)).isEmpty)
        #expect(scenario.state.status?.text == "run 5 is kept on web1: installtop replay 5 there plays it")
    }

    @Test("How the shell ended stays in the footer until the next key, however long the operator looks at the board first; no tick is asked for it")
    func returnStaysUntilAKey() {
        var scenario = board(["web1"])
        _ = scenario.state.handle(.returnedFromShell("Shell on web1 ended after 0:42 · installtop replay 12"))
        #expect(scenario.state.nextTickTime == nil, "an idle board sleeps until input")
        scenario.advance(3600)
        #expect(scenario.state.status?.text == "Shell on web1 ended after 0:42 · installtop replay 12")
        #expect(scenario.screen().contains("installtop replay 12"))
        scenario.press(.down)
        #expect(scenario.state.status == nil)
    }
}
