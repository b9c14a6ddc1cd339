import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// An update added to a running job (rule 28: a package dpkg names later in an observed job
/// without a plan) is shown like the job's others, under a filter too.
@Suite("Monitor: an update added to a running job")
struct MonitorAddedUpdateTests {
    @Test("It gets a row in the job, and a filter that matches only its title shows the job with it")
    func addedRowAndFilter() {
        var scenario = Scenario()
        let job = scenario.queue("dpkg -i one.deb two.deb (plan partial: from dpkg's lines)", ["lab-first 1.0"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.press(.character("/"))
        scenario.type("second")
        scenario.press(.enter)
        #expect(scenario.state.visibleJobs.isEmpty, "nothing matches yet")

        _ = scenario.send(.updateStarted(job: job, index: 1, updateID: "lab-second", added: Update(id: "lab-second", title: "lab-second 2.0")))
        let shown = scenario.state.visibleJobs
        #expect(shown.map(\.id) == [job])
        #expect(shown.first.map { Array(scenario.state.visibleUpdates(of: $0)) } == [1])
        #expect(scenario.screen().contains("lab-second 2.0"))
        scenario.press(.escape)
        #expect(scenario.state.queue.job(job)?.updates.count == 2)
    }
}
