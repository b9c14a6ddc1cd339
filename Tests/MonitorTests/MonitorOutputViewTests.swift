import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The output pane and the full-output view (Enter): lines redrawn with carriage returns show as
/// a terminal leaves them, and Home reaches the oldest line also below a result line.
@Suite("Monitor: output as a terminal shows it")
struct MonitorOutputViewTests {
    /// dpkg's database progress, one line redrawn with CR as dpkg writes it to a pipe.
    static let readingDatabase = "(Reading database ... \r(Reading database ... 5%\r(Reading database ... 50%\r"
        + "(Reading database ... 100%\r(Reading database ... 6071 files and directories currently installed.)"

    @Test("dpkg's carriage-return progress shows its last redraw, in the pane and in the full output, with no ␍")
    func carriageReturnProgress() throws {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Packages", ["lab-base 1.0"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.output(job, 0, "Selecting previously unselected package lab-base.")
        scenario.output(job, 0, Self.readingDatabase)
        scenario.output(job, 0, "Preparing to unpack .../lab-base_1.0_all.deb ...")
        let pane = scenario.screen()
        #expect(pane.contains("│(Reading database ... 6071 files and directories currently installed.)"), "\(pane)")
        #expect(!pane.contains("␍") && !pane.contains("5%(Reading"), "\(pane)")
        scenario.press(.tab, .enter)
        let full = scenario.screen()
        #expect(full.contains("Output · lab-base 1.0 · lines"), "\(full)")
        #expect(full.contains("│(Reading database ... 6071 files and directories currently installed.)"), "\(full)")
        #expect(!full.contains("␍"), "\(full)")
    }

    @Test("Home in the full output of a finished update shows its first line under the result line")
    func homeReachesTheFirstLine() throws {
        var scenario = Scenario(width: 80, height: 24)
        let job = scenario.queue("Chatty", ["chatty"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        for line in 1...200 { scenario.output(job, 0, "output line \(line)") }
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.completeJob(job)
        scenario.press(.tab, .enter, .home)
        let screen = scenario.screen()
        #expect(screen.contains("lines 1-") && screen.contains("│output line 1 "), "\(screen)")
        #expect(screen.contains("✔ succeeded"), "the result line stays: \(screen)")
        scenario.press(.end)
        #expect(scenario.screen().contains("│output line 200 "))
    }
}
