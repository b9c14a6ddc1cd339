import Foundation
import Testing

@testable import Monitor

/// The board following a patch night (`attach --night`) on values: where the night is in the
/// header, each host's step in the pane of a host with no job, and nothing of a night before
/// its stamp says one.
@Suite("Monitor board: the patch night it follows")
struct MonitorBoardNightTests {
    private func board(_ hosts: [String]) -> Scenario {
        var scenario = Scenario(width: 160, height: 30)
        _ = scenario.state.handle(.host(.hosts(hosts)))
        for host in hosts {
            _ = scenario.state.handle(.host(.connecting(host)))
            _ = scenario.state.handle(.host(.queueReplaced(host)))
        }
        return scenario
    }

    @Test("the header says the night's wave and window; the selected idle host's pane its step and why; a night stopped says so; none before a stamp, none after it goes")
    func nightOnTheBoard() {
        var scenario = board(["web1", "web2", "db1"])
        #expect(!scenario.screen().contains("night:"), "\(scenario.screen())")

        _ = scenario.state.handle(.host(.night(BoardNight(headline: "wave 2 of 3 · until 04:00 UTC", steps: [
            "web1": "confirmed (wave 1)", "web2": "running (wave 2)", "db1": "pending (wave 3)",
        ]))))
        let screen = scenario.screen()
        let header = screen.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("3 hosts") && header.contains("night: wave 2 of 3 · until 04:00 UTC"), "\(header)")
        // web1, the first row, is selected: its pane says its step under its idle line.
        #expect(screen.contains("web1: idle, no jobs") && screen.contains("night: confirmed (wave 1)"), "\(screen)")

        _ = scenario.state.handle(.host(.night(BoardNight(headline: "stopped: wave 2 did not pass its gate: web2 reverted", steps: [
            "web1": "confirmed (wave 1)", "web2": "reverted (wave 2): a check regressed", "db1": "pending (wave 3)",
        ]))))
        scenario.press(.down)
        let stopped = scenario.screen()
        #expect(stopped.split(separator: "\n").first?.contains("night: stopped: wave 2 did not pass its gate") == true, "\(stopped)")
        #expect(stopped.contains("night: reverted (wave 2): a check regressed"), "\(stopped)")

        _ = scenario.state.handle(.host(.night(nil)))
        #expect(!scenario.screen().contains("night:"), "\(scenario.screen())")
    }
}
