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
}
