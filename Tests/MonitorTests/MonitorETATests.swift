import Foundation
import InstallEngine
import Testing

@testable import Monitor

/// ETAs of updates reporting progress in fine and coarse steps, and at a changing pace, on the
/// scenario's manual clock: each is checked against the true time left at every sample.
@Suite("Monitor ETAs from reported progress")
struct MonitorETATests {
    /// Feeds update 0 of a new job the samples `(seconds after its start, percent)` and checks,
    /// at every sample from `checkFrom` seconds on, that the ETA is within `tolerance` (a
    /// fraction) of `end` minus the sample's time, or within `slack` seconds of it.
    private func expectETA(
        samples: [(time: Double, percent: Double)], end: Double, checkFrom: Double, tolerance: Double, slack: Double = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var scenario = Scenario()
        let job = scenario.queue("Tools", ["linear"])
        scenario.startJob(job)
        let start = scenario.now
        scenario.startUpdate(job, 0)
        var checked = 0
        for sample in samples {
            scenario.now = start.addingTimeInterval(sample.time)
            scenario.progress(job, 0, sample.percent)
            guard sample.time >= checkFrom else { continue }
            let truth = end - sample.time
            let eta = scenario.state.queue.job(job).flatMap { scenario.state.etaSeconds(job: $0, index: 0) }
            #expect(eta.map { abs($0 - truth) <= max(tolerance * truth, slack) } == true,
                    "at \(sample.time) s, \(sample.percent) %: ETA \(eta.map { "\($0)" } ?? "none"), \(truth) s left",
                    sourceLocation: sourceLocation)
            checked += 1
        }
        #expect(checked > 0, sourceLocation: sourceLocation)
    }

    @Test("1 % every 0.3 s, the first at once: within 20 % from 10 % of the run on")
    func finePercentSteps() {
        // A 30 s script that reports 1 % and then sleeps 0.3 s, a hundred times: each percent
        // is said a step early, so in the last seconds the ETA is off by up to that step.
        let samples = (1...99).map { (time: 0.005 + Double($0 - 1) * 0.3, percent: Double($0)) }
        expectETA(samples: samples, end: 30.005, checkFrom: 3, tolerance: 0.2, slack: 0.31)
    }

    @Test("10 % every 3 s: within 20 % from 10 % of the run on")
    func coarsePercentSteps() {
        let samples = (1...9).map { (time: Double($0) * 3, percent: Double($0) * 10) }
        expectETA(samples: samples, end: 30, checkFrom: 3, tolerance: 0.2)
    }

    @Test("5 %/s for 10 s, then 1 %/s: the ETA follows the new pace within one window")
    func changingPace() {
        let fast = (1...50).map { (time: Double($0) * 0.2, percent: Double($0)) }
        let slow = (1...49).map { (time: 10 + Double($0), percent: 50 + Double($0)) }
        expectETA(samples: fast + slow, end: 60, checkFrom: 10 + ProgressRate.window, tolerance: 0.1)
    }
}
