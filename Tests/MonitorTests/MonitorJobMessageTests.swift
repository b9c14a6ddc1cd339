import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// A driver's status text for the whole job (apt's downloads, a repair) is shown in the job's
/// row, in place of its bar (and of "killing…" during the repair after a forced abort), until
/// it is cleared.
@Suite("Monitor: the job's status text")
struct MonitorJobMessageTests {
    /// The jobs pane's row naming `text` (between the pane's first two borders).
    private func jobsPaneRow(_ scenario: Scenario, containing text: String) -> String? {
        scenario.render().lines.compactMap { line -> String? in
            let cells = line.split(separator: "│", omittingEmptySubsequences: false)
            return cells.count > 2 ? String(cells[1]) : nil
        }.first { $0.contains(text) }
    }

    @Test("Shown in the job's row while set, also after a forced abort; the bar comes back once it is cleared")
    func shownInTheRow() {
        var scenario = Scenario()
        let job = scenario.queue("apt install", ["lab-base", "lab-app"])
        scenario.send(.jobStarted(job: job))
        scenario.send(.progress(job: job, index: 0, updatePercent: nil, jobPercent: 0, message: nil, jobMessage: "downloading 2 of 2 · 0.7 of 1.4 kB"))
        let downloading = jobsPaneRow(scenario, containing: "apt") ?? ""
        #expect(downloading.contains("downloading 2 of 2"), "\(downloading)")

        scenario.send(.updateStarted(job: job, index: 0, updateID: "lab-base"))
        scenario.send(.progress(job: job, index: 0, updatePercent: 50, jobPercent: 25, message: "unpacking"))
        let running = jobsPaneRow(scenario, containing: "apt") ?? ""
        #expect(!running.contains("downloading") && running.contains("25%"), "\(running)")

        scenario.send(.jobAbortRequested(job: job, force: true))
        scenario.send(.progress(job: job, index: 0, updatePercent: 50, jobPercent: 25, message: nil, jobMessage: "repairing: dpkg --configure -a …"))
        let repairing = jobsPaneRow(scenario, containing: "apt") ?? ""
        #expect(repairing.contains("repairing: dpkg") && !repairing.contains("killing"), "\(repairing)")
    }
}
