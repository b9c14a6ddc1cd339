import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

@Suite("Monitor keys")
struct MonitorKeyTests {
    /// One running job with two updates, selected.
    private func running() -> (Scenario, Int) {
        var scenario = Scenario()
        let job = scenario.queue("Security updates", ["OpenSSL", "libc6"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        return (scenario, job)
    }

    @Test func abortAsksFirstAndYesAborts() {
        var (scenario, job) = running()
        #expect(Scenario.commands(scenario.press(.character("a"))).isEmpty)
        #expect(scenario.state.overlay == .confirm(.abortJob(job: job, name: "Security updates")))
        #expect(scenario.screen().contains("Abort Security updates?"))
        let effects = scenario.press(.character("y"))
        #expect(Scenario.commands(effects) == [.command(.abort(job: job, force: false))])
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text.contains("press a again to force") == true)
    }

    @Test func noCancelsTheAbort() {
        var (scenario, _) = running()
        scenario.press(.character("a"))
        #expect(Scenario.commands(scenario.press(.character("n"))).isEmpty)
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text == "Cancelled")
    }

    @Test func otherKeysLeaveTheQuestionOpen() {
        var (scenario, job) = running()
        scenario.press(.character("a"))
        #expect(Scenario.commands(scenario.press(.character("x"), .down, .character("q"))).isEmpty)
        #expect(scenario.state.overlay == nil, "q answers no")
        scenario.press(.character("a"), .escape)
        #expect(scenario.state.overlay == nil)
        _ = job
    }

    @Test func abortAgainOnAnAbortingJobForcesWithoutAsking() {
        var (scenario, job) = running()
        scenario.press(.character("a"), .character("y"))
        scenario.send(.jobAbortRequested(job: job, force: false))
        #expect(scenario.screen().contains("aborting…"))
        let effects = scenario.press(.character("a"))
        #expect(Scenario.commands(effects) == [.command(.abort(job: job, force: true))])
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text.contains("Forcing") == true)
        scenario.send(.jobAbortRequested(job: job, force: true))
        #expect(Scenario.commands(scenario.press(.character("a"))).isEmpty)
        #expect(scenario.screen().contains("killing…"))
    }

    @Test func abortOfACompletedJobIsRefusedWithAMessage() {
        var scenario = Scenario()
        let job = scenario.queue("Tools", ["jq"])
        scenario.run(job)
        #expect(Scenario.commands(scenario.press(.character("a"))).isEmpty)
        #expect(scenario.state.status?.text == "Tools has already completed")
    }

    @Test func abortAllAsksThenForcesWhenEveryJobIsAborting() {
        var (scenario, job) = running()
        let second = scenario.queue("Kernel", ["linux"])
        scenario.press(.character("A"))
        #expect(scenario.state.overlay == .confirm(.abortAll(count: 2)))
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.abortAll(force: false))])
        scenario.send(.jobAbortRequested(job: job, force: false))
        scenario.send(.jobAbortRequested(job: second, force: false))
        #expect(Scenario.commands(scenario.press(.character("A"))) == [.command(.abortAll(force: true))])
    }

    @Test func cleanUpOfARunningJobWaitsThenTheJobDisappears() {
        var (scenario, job) = running()
        let other = scenario.queue("Kernel", ["linux"])
        #expect(Scenario.commands(scenario.press(.character("c"))) == [.command(.cleanUp(job: job))])
        #expect(scenario.state.pendingCleanUps == [job])
        #expect(scenario.screen().contains("waiting to clean up…"))
        #expect(Scenario.commands(scenario.press(.character("c"))).isEmpty, "a second c does not ask again")
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.completeJob(job)
        #expect(scenario.state.queue.job(job) != nil, "completion alone does not remove it")
        scenario.send(.jobCleanedUp(job: job))
        #expect(scenario.state.queue.job(job) == nil)
        #expect(scenario.state.pendingCleanUps.isEmpty)
        #expect(scenario.state.selectedJobID == other)
        scenario.advance(StatusMessage.lifetime + 1)
        #expect(!scenario.screen().contains("Security updates"))
    }

    @Test func cleanUpAllTakesOnlyCompletedJobs() {
        var scenario = Scenario()
        let done = scenario.queue("Tools", ["jq"])
        let failed = scenario.queue("Drivers", ["nvidia"])
        scenario.run(done)
        scenario.run(failed, codes: [.failed])
        scenario.queue("Kernel", ["linux"])
        let effects = Scenario.commands(scenario.press(.character("C")))
        #expect(effects == [.command(.cleanUp(job: done)), .command(.cleanUp(job: failed))])
        #expect(Scenario.commands(scenario.press(.character("C"))).isEmpty)
        #expect(scenario.state.status?.text == "No completed job to clean up")
    }

    @Test func retryOnlyForCompletedJobsWithFailures() {
        var scenario = Scenario()
        let good = scenario.queue("Tools", ["jq"])
        let bad = scenario.queue("Drivers", ["nvidia", "alsa"])
        scenario.run(good)
        #expect(Scenario.commands(scenario.press(.character("r"))).isEmpty)
        #expect(scenario.state.status?.text == "Tools has no failed or aborted updates to retry")
        scenario.press(.down)
        #expect(scenario.state.selectedJobID == bad)
        #expect(Scenario.commands(scenario.press(.character("r"))).isEmpty, "still queued")
        #expect(scenario.state.status?.text.contains("has not completed") == true)
        scenario.run(bad, codes: [.failed, .succeeded])
        #expect(Scenario.commands(scenario.press(.character("r"))) == [.command(.retry(job: bad))])
        #expect(scenario.state.status?.text == "Re-queued 1 update of Drivers as a new job")
    }

    @Test func filterNarrowsJobsAndUpdatesAndEscapeClears() {
        var scenario = Scenario()
        scenario.queue("Security updates", ["OpenSSL", "libc6", "curl"])
        let kernel = scenario.queue("Kernel", ["linux-image"])
        scenario.press(.character("/"))
        #expect(scenario.state.isEditingFilter)
        scenario.type("kern")
        #expect(scenario.state.visibleJobs.map(\.id) == [kernel])
        #expect(scenario.state.selectedJobID == kernel)
        #expect(scenario.screen().contains("/ kern"))
        scenario.press(.backspace, .backspace, .backspace, .backspace)
        scenario.type("CURL")
        #expect(scenario.state.visibleJobs.map(\.descriptor.name) == ["Security updates"])
        let security = scenario.state.visibleJobs[0]
        #expect(Array(scenario.state.visibleUpdates(of: security)) == [2])
        scenario.press(.enter)
        #expect(!scenario.state.isEditingFilter)
        #expect(scenario.screen().contains("filter: CURL"))
        scenario.press(.escape)
        #expect(scenario.state.filterText.isEmpty)
        #expect(scenario.state.visibleJobs.count == 2)
    }

    @Test func filterKeysDoNotTriggerCommands() {
        var (scenario, _) = running()
        scenario.press(.character("/"))
        #expect(Scenario.commands(scenario.type("aqcr")).isEmpty)
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.filterText == "aqcr")
    }

    @Test func helpListsEveryKeyAndAnyKeyCloses() {
        var scenario = Scenario(width: 100, height: 30)
        scenario.press(.character("?"))
        #expect(scenario.state.overlay == .help(scroll: 0))
        let screen = scenario.screen()
        for entry in MonitorState.keyHelp {
            #expect(screen.contains(entry.keys), "help shows \(entry.keys)")
            #expect(screen.contains(entry.action), "help explains \(entry.keys)")
        }
        #expect(Scenario.commands(scenario.press(.character("q"))).isEmpty, "q closes help, it does not quit")
        #expect(scenario.state.overlay == nil)
    }

    @Test func quitIsImmediateWhenIdleAndAsksWhileJobsRun() {
        var idle = Scenario()
        let done = idle.queue("Tools", ["jq"])
        idle.run(done)
        #expect(Scenario.commands(idle.press(.character("q"))) == [.quit(abortRunning: false)])

        var (scenario, job) = running()
        #expect(Scenario.commands(scenario.press(.character("q"))).isEmpty)
        #expect(scenario.state.overlay == .confirm(.quit(count: 1)))
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.abortAll(force: false))])
        #expect(scenario.state.quitPhase == .waitingForAborts)
        #expect(Scenario.commands(scenario.press(.character("q"))) == [.command(.abortAll(force: true))])
        #expect(scenario.state.quitPhase == .killing)
        #expect(Scenario.commands(scenario.press(.character("q"))).isEmpty, "killing is as far as it goes")
        _ = job
    }

    @Test func quitWaitsForTheAbortedJobsToComplete() {
        var (scenario, job) = running()
        scenario.press(.character("q"), .character("y"))
        #expect(scenario.state.nextTickTime != nil)
        scenario.completeUpdate(job, 0, .aborted)
        scenario.completeUpdate(job, 1, .aborted)
        let results = [UpdateInstallationResult(resultCode: .aborted), UpdateInstallationResult(resultCode: .aborted)]
        let effects = scenario.send(.jobCompleted(job: job, result: .combining(results, abortRequested: true)))
        #expect(Scenario.commands(effects) == [.quit(abortRunning: true)])
    }

    @Test func firstSignalAsksSecondQuitsAndAbortsThirdKills() {
        var (scenario, _) = running()
        #expect(Scenario.commands(scenario.state.handle(.signal(.interrupt))).isEmpty)
        #expect(scenario.state.overlay == .confirm(.quit(count: 1)))
        #expect(Scenario.commands(scenario.state.handle(.signal(.terminate))) == [.command(.abortAll(force: false))])
        #expect(Scenario.commands(scenario.state.handle(.signal(.interrupt))) == [.command(.abortAll(force: true))])
    }

    @Test func hangupAbortsWithoutAsking() {
        var (scenario, _) = running()
        #expect(Scenario.commands(scenario.state.handle(.signal(.hangup))) == [.command(.abortAll(force: false))])
        #expect(scenario.state.quitPhase == .waitingForAborts)
        var idle = Scenario()
        #expect(Scenario.commands(idle.state.handle(.signal(.hangup))) == [.quit(abortRunning: false)])
    }

    @Test("SIGTERM aborts every job and quits without asking; a second one kills")
    func terminateAbortsWithoutAskingAndEscalates() {
        var (scenario, _) = running()
        #expect(Scenario.commands(scenario.state.handle(.signal(.terminate))) == [.command(.abortAll(force: false))])
        #expect(scenario.state.overlay == nil, "nothing asks a question no one can answer")
        #expect(scenario.state.quitPhase == .waitingForAborts)
        #expect(Scenario.commands(scenario.state.handle(.signal(.terminate))) == [.command(.abortAll(force: true))])
        #expect(scenario.state.quitPhase == .killing)
        var idle = Scenario()
        #expect(Scenario.commands(idle.state.handle(.signal(.terminate))) == [.quit(abortRunning: false)])
    }

    @Test func selectionMovesWithArrowsAndVimKeysAndTabSwitchesPanes() {
        var scenario = Scenario()
        let first = scenario.queue("One", ["a", "b", "c"])
        let second = scenario.queue("Two", ["d"])
        #expect(scenario.state.selectedJobID == first)
        scenario.press(.character("j"))
        #expect(scenario.state.selectedJobID == second)
        scenario.press(.up)
        #expect(scenario.state.selectedJobID == first)
        scenario.press(.tab)
        #expect(scenario.state.focusedPane == .updates)
        scenario.press(.end)
        #expect(scenario.state.selectedUpdateIndex == 2)
        scenario.press(.character("k"))
        #expect(scenario.state.selectedUpdateIndex == 1)
        scenario.press(.home)
        #expect(scenario.state.selectedUpdateIndex == 0)
        scenario.press(.backTab, .backTab)
        #expect(scenario.state.focusedPane == .output)
    }

    @Test func pageKeysMoveByTheVisibleRows() {
        var scenario = Scenario(width: 80, height: 24)
        let job = scenario.queue("Big", (0..<100).map { "update \($0)" })
        scenario.press(.tab, .pageDown)
        let rows = MonitorLayout.innerRows(scenario.state.layout.updates)
        #expect(scenario.state.selectedUpdateIndex == rows)
        #expect(scenario.state.updatesOffset == 1, "scrolled just enough to show the selection")
        scenario.press(.end)
        #expect(scenario.state.selectedUpdateIndex == 99)
        #expect(scenario.state.updatesOffset == 100 - rows)
        #expect(scenario.screen().contains("update 99"))
        _ = job
    }

    @Test func selectionFollowsTheRunningUpdateUntilMovedByHand() {
        var (scenario, job) = running()
        #expect(scenario.state.selectedUpdateIndex == 0)
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.startUpdate(job, 1)
        #expect(scenario.state.selectedUpdateIndex == 1)
        scenario.press(.tab, .up)
        #expect(scenario.state.selectedUpdateIndex == 0)
        #expect(!scenario.state.followsRunningUpdate)
    }

    @Test("Enter in the updates pane opens the update's full output; Esc closes it")
    func enterOpensTheFullOutputAndEscapeClosesIt() {
        var (scenario, job) = running()
        for number in 1...60 { scenario.output(job, 0, "line \(number)") }
        scenario.press(.tab, .enter)
        #expect(scenario.state.overlay == .fullOutput(job: job, index: 0, scroll: 0))
        #expect(scenario.screen().contains("line 60"))
        scenario.press(.pageUp)
        guard case .fullOutput(_, _, let scroll)? = scenario.state.overlay else {
            Issue.record("the view closed")
            return
        }
        #expect(scroll == MonitorLayout.innerRows(scenario.state.layout.body))
        #expect(!scenario.screen().contains("line 60"))
        scenario.output(job, 0, "line 61")
        #expect(!scenario.screen().contains("line 61"), "a scrolled-back view stays where it is")
        scenario.press(.escape)
        #expect(scenario.state.overlay == nil)
    }

    @Test func themeKeyCyclesAndSaysWhich() {
        var scenario = Scenario()
        scenario.press(.character("t"))
        #expect(scenario.state.themeIndex == 1)
        #expect(scenario.state.status?.text == "Theme: Mono")
        scenario.press(.character("t"))
        #expect(scenario.state.themeIndex == 0)
    }

    @Test func refusedCommandsShowTheirText() {
        var scenario = Scenario()
        _ = scenario.state.handle(.commandResult("job 3 has already completed"))
        #expect(scenario.screen().contains("job 3 has already completed"))
        scenario.advance(StatusMessage.lifetime + 1)
        #expect(scenario.state.status == nil)
    }
}
