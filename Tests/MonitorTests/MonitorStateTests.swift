import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

@Suite("Monitor state")
struct MonitorStateTests {
    @Test func ticksOnlyWhileSomethingRuns() {
        var scenario = Scenario()
        #expect(scenario.state.nextTickTime == nil, "an empty monitor sleeps")
        let job = scenario.queue("Tools", ["jq"])
        #expect(scenario.state.nextTickTime == nil, "a queued job alone does not animate")
        scenario.startJob(job)
        #expect(scenario.state.nextTickTime == scenario.now.addingTimeInterval(0.1))
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.completeJob(job)
        scenario.advance(StatusMessage.lifetime + 1)
        #expect(scenario.state.nextTickTime == nil, "finished jobs on screen need no ticks")
        #expect(scenario.state.handle(.tick(scenario.now.addingTimeInterval(1))).isEmpty, "an idle tick draws nothing")
    }

    @Test func statusMessageExpiryIsTheOnlyIdleWakeUp() {
        var scenario = Scenario()
        scenario.press(.character("t"))
        #expect(scenario.state.nextTickTime == scenario.state.status?.expiresAt)
    }

    @Test func etaComesFromTheSmoothedRate() {
        var scenario = Scenario()
        let job = scenario.queue("Tools", ["jq", "htop"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        for step in 1...4 {
            scenario.now = scenario.now.addingTimeInterval(1)
            scenario.progress(job, 0, Double(step) * 10)
        }
        let state = scenario.state
        let current = try! #require(state.queue.job(job))
        let eta = try! #require(state.etaSeconds(job: current, index: 0))
        #expect(abs(eta - 6) < 0.1, "10 %/s with 60 % left: \(eta)")
        let jobETA = try! #require(state.etaSeconds(job: current))
        #expect(abs(jobETA - (6 + 10)) < 0.1, "the next update is assumed to take as long as this one (4 s + 6 s): \(jobETA)")
        #expect(scenario.screen().contains("ETA 16s"))
    }

    @Test func indeterminateUpdatesHaveNoETAAndMove() {
        var scenario = Scenario(width: 120, height: 30)
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.progress(job, 0, nil, message: "thinking")
        let current = scenario.state.queue.job(job)!
        #expect(scenario.state.etaSeconds(job: current, index: 0) == nil)
        func updateRow() -> Substring {
            let line = scenario.render().lines.first { $0.contains("│▶ jq") }!
            return line[line.range(of: "▶ jq")!.lowerBound...]
        }
        let before = updateRow()
        #expect(!before.contains("%"), "never a frozen 0 %")
        #expect(before.contains("thinking"))
        scenario.advance(0.1)
        scenario.advance(0.1)
        let after = updateRow()
        #expect(before != after, "the block moves")
        #expect(after.contains("0:00"))
    }

    @Test func resizeToTooSmallAndBack() {
        var scenario = Scenario.product()
        #expect(scenario.state.handle(.resize(width: 39, height: 12)).contains(.redraw))
        #expect(scenario.screen().contains("terminal too small (need 40×12)"))
        _ = scenario.state.handle(.resize(width: 40, height: 12))
        #expect(scenario.screen().contains("installtop"))
    }

    @Test func hostileOutputIsShownNotObeyed() {
        var scenario = Scenario(width: 120, height: 30)
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.output(job, 0, "\u{1B}[2J\u{1B}]0;pwned\u{07}done\r")
        scenario.progress(job, 0, 10, message: "\u{1B}[31mred")
        let screen = scenario.screen()
        // The carriage return at the end redraws nothing (CarriageReturnRedraw); the rest is shown.
        #expect(screen.contains("␛[2J␛]0;pwned␇done"))
        #expect(screen.contains("␛[31mred"))
        let buffer = scenario.render()
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let scalar = buffer.character(atX: x, y: y).unicodeScalars.first!.value
                #expect(scalar >= 0x20 && scalar != 0x7F && !(0x80..<0xA0).contains(scalar))
            }
        }
    }

    @Test func hostileTitlesAndNamesAreSanitized() {
        var scenario = Scenario()
        scenario.queue("job\u{1B}]0;x\u{07}", ["title\u{1B}[2J"])
        let screen = scenario.screen()
        #expect(screen.contains("job␛]0;x␇"))
        #expect(screen.contains("title␛[2J"))
    }

    @Test func rebootRequiredShowsInTheHeader() {
        var scenario = Scenario()
        let job = scenario.queue("Kernel", ["linux"])
        #expect(!scenario.screen().contains("reboot required"))
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, .succeeded, reboot: true)
        #expect(scenario.screen().split(separator: "\n")[0].contains("⟳ reboot required"))
    }

    @Test func aScrolledBackViewStopsAtTheOldestLineKept() {
        var scenario = Scenario(width: 80, height: 24)
        scenario.state = MonitorState(width: 80, height: 24, now: scenario.now, outputCapacity: 10)
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        for number in 1...10 { scenario.output(job, 0, "line \(number)") }
        scenario.press(.tab, .tab, .home)
        let rows = MonitorLayout.innerRows(scenario.state.layout.output)
        #expect(scenario.state.outputScroll == 10 - rows)
        for number in 11...30 { scenario.output(job, 0, "line \(number)") }
        #expect(scenario.state.outputScroll == 10 - rows)
        #expect(scenario.screen().contains("line 21"), "the oldest line kept is on screen")
    }

    @Test func outputPaneScrollsBackAndFollowsAgain() {
        var scenario = Scenario()
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        for number in 1...30 { scenario.output(job, 0, "line \(number)") }
        #expect(scenario.screen().contains("line 30"))
        scenario.press(.tab, .tab, .up, .up)
        #expect(scenario.state.outputScroll == 2)
        #expect(scenario.screen().contains("2 lines back"))
        #expect(!scenario.screen().contains("line 30"))
        scenario.press(.end)
        #expect(scenario.state.outputScroll == 0)
        scenario.press(.home)
        #expect(scenario.state.outputScroll == 30 - MonitorLayout.innerRows(scenario.state.layout.output))
    }

    @Test("a message shown by a key after an idle stretch lives its full lifetime from the key")
    func statusMessageAfterIdleLivesItsFullTime() {
        var scenario = Scenario()
        let idleEnd = scenario.now.addingTimeInterval(8)
        // Eight idle seconds: no engine event and no tick moved the state's clock; the loop
        // tells it the time before the key.
        scenario.state.advanceClock(to: idleEnd)
        scenario.press(.character("t"))
        #expect(scenario.state.status?.text == "Theme: Mono")
        #expect(scenario.state.status?.expiresAt == idleEnd.addingTimeInterval(StatusMessage.lifetime))
        _ = scenario.state.handle(.tick(idleEnd.addingTimeInterval(1)))
        #expect(scenario.state.status?.text == "Theme: Mono", "still shown a second later")
        _ = scenario.state.handle(.tick(idleEnd.addingTimeInterval(StatusMessage.lifetime)))
        #expect(scenario.state.status == nil, "gone once its lifetime is over")
        scenario.state.advanceClock(to: idleEnd)
        #expect(scenario.state.now == idleEnd.addingTimeInterval(StatusMessage.lifetime), "the clock never goes back")
    }
}
