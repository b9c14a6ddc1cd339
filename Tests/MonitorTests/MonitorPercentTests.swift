import Foundation
import InstallEngine
import Testing

@testable import Monitor

/// The monitor shows the figures the engine's events carry (rule 6 is the engine's), and its
/// job bar never goes down while the job runs: not when a consumer that fell behind gets one
/// update's figure for the job after a higher one of another (its outbox coalesces progress
/// per update, the newest in the place of the first), nor when an update's completion says no
/// figure for the job.
@Suite("Monitor: percents never go down")
struct MonitorPercentTests {
    /// The job's percent as the job pane and the board show it, and its text.
    private func shown(_ scenario: Scenario, _ job: Int) -> (percent: Double, text: String) {
        let state = scenario.state.queue.job(job)
        let percent = state.map { scenario.state.percentShown(of: $0) } ?? -1
        return (percent, MonitorRenderer.percentText(percent))
    }

    @Test("Coalesced progress out of order across updates, then completions: the job's bar keeps its highest figure")
    func coalescedOrder() {
        var scenario = Scenario()
        let job = scenario.queue("Upgrade", ["a", "b", "c", "d"])
        scenario.startJob(job)
        for index in 0..<3 { scenario.startUpdate(job, index) }
        // The engine said a 10 % (job 2.5), b 40 % (job 12.5), a 60 % (job 25); a consumer that
        // fell behind gets a's newest first, then b's.
        let deliveries: [(index: Int, update: Double, job: Double)] = [(0, 60, 25), (1, 40, 12.5), (2, 0, 12.5), (1, 50, 27.5)]
        var figures: [Double] = []
        var texts: [String] = []
        for delivery in deliveries {
            scenario.send(.progress(job: job, index: delivery.index, updatePercent: delivery.update, jobPercent: delivery.job, message: nil))
            figures.append(shown(scenario, job).percent)
            texts.append(shown(scenario, job).text)
        }
        #expect(figures == [25, 25, 25, 27.5])
        #expect(texts == ["25%", "25%", "25%", "27%"])
        #expect(scenario.state.queue.job(job)?.updates[1].percent == 50, "an update shows the figure its event carries")

        // A completion carries no figure for the job: the finished share shows when higher.
        scenario.completeUpdate(job, 0, .succeeded)
        #expect(shown(scenario, job).percent == 27.5, "one of four finished is 25 %, below the figure shown")
        scenario.completeUpdate(job, 1, .failed, reason: "exited with status 1")
        #expect(shown(scenario, job).percent == 50)
        scenario.send(.progress(job: job, index: 2, updatePercent: 10, jobPercent: 45, message: nil))
        #expect(shown(scenario, job).percent == 50, "a figure below the finished share does not lower the bar")
        scenario.completeUpdate(job, 2, .succeeded)
        scenario.startUpdate(job, 3)
        scenario.completeUpdate(job, 3, .succeeded)
        #expect(shown(scenario, job).percent == 100)
    }

    /// Figures and the text shown for them.
    static let shownTexts: [(Double, String)] = [
        (.nan, "0%"), (-5, "0%"), (250, "100%"), (.infinity, "100%"), (99.99, "99%"),
    ]

    @Test("What the event carries is shown within 0…100: NaN and figures past the bounds are brought in", arguments: shownTexts)
    func percentTextBounds(figure: Double, text: String) {
        #expect(MonitorRenderer.percentText(figure) == text)
    }
}
