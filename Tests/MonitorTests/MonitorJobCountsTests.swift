import Foundation
import InstallEngine
import Testing

@testable import Monitor

/// A job's counts read the same in the header, its row in the jobs pane, the updates pane's
/// title and its detail (`JobCounts`: done means installed), and a job that stopped early
/// never reads as all done.
@Suite("Monitor: one count of a job everywhere")
struct MonitorJobCountsTests {
    /// The header, the job's row, the updates pane's title and the detail's first line.
    private struct Views {
        var header: String
        var row: String
        var title: String
        var detail: String
    }

    private func views(_ scenario: Scenario, job name: String) throws -> Views {
        var scenario = scenario
        let lines = scenario.render().lines
        let header = try #require(lines.first)
        let row = try #require(lines.first { $0.hasPrefix("│") && $0.dropFirst(3).hasPrefix(name) }, "\(lines.joined(separator: "\n"))")
        let title = try #require(lines.first { $0.contains("┌ \(name) · ") }, "\(lines.joined(separator: "\n"))")
        scenario.press(.home)
        while scenario.state.selectedJob?.descriptor.name != name { scenario.press(.down) }
        scenario.press(.enter)
        let detailLines = scenario.render().lines
        let detail = try #require(detailLines.first { $0.contains("updates done") }, "\(detailLines.joined(separator: "\n"))")
        return Views(header: header, row: row, title: title, detail: detail)
    }

    @Test("A mix of successes and failures: failed 2/4 in the row, the title, the detail and the header")
    func mixReadsTheSameEverywhere() throws {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Drivers", ["nvidia", "firmware", "alsa", "r8169"])
        scenario.run(job, codes: [.succeeded, .failed, .failed, .succeeded])
        #expect(scenario.state.queue.job(job)?.result?.resultCode == .succeededWithErrors, "rule 16's mix, shown as failed")
        let views = try views(scenario, job: "Drivers")
        #expect(views.row.contains("failed 2/4"), "\(views.row)")
        #expect(views.title.contains("failed 2/4"), "\(views.title)")
        #expect(views.detail.contains("failed · 2/4 updates done · 2 failed"), "\(views.detail)")
        #expect(!views.detail.contains("with errors") && !views.detail.contains("4/4"), "\(views.detail)")
        #expect(views.header.contains("2/4 updates"), "\(views.header)")
    }

    @Test("While a job runs after a failure the header counts what is done, as the title does")
    func runningHeaderAgreesWithTheTitle() throws {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Tools", ["jq", "htop", "curl", "git"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.startUpdate(job, 1)
        scenario.completeUpdate(job, 1, .failed, reason: "exited with status 1")
        scenario.startUpdate(job, 2)
        scenario.progress(job, 2, 40)
        let lines = scenario.render().lines
        let header = try #require(lines.first)
        let title = try #require(lines.first { $0.contains("┌ Tools · ") })
        #expect(header.contains("1/4 updates"), "\(header)")
        #expect(title.contains("· 1/4 ·"), "\(title)")
    }

    @Test("After an abort nothing reads all done: aborted 2/5, and the header is short of 100 %")
    func abortedJobIsNeverAllDone() throws {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Patches", ["a", "b", "c", "d", "e"])
        scenario.startJob(job)
        for index in 0..<2 {
            scenario.startUpdate(job, index)
            scenario.progress(job, index, 100)
            scenario.completeUpdate(job, index, .succeeded)
        }
        scenario.startUpdate(job, 2)
        scenario.progress(job, 2, 30)
        scenario.send(.jobAbortRequested(job: job, force: false))
        scenario.completeUpdate(job, 2, .aborted, reason: "stopped by the abort")
        scenario.completeJob(job)
        #expect(scenario.state.queue.job(job)?.result?.resultCode == .aborted)
        let views = try views(scenario, job: "Patches")
        #expect(views.row.contains("aborted 2/5"), "\(views.row)")
        #expect(views.title.contains("aborted 2/5"), "\(views.title)")
        #expect(views.detail.contains("aborted · 2/5 updates done · 3 aborted"), "\(views.detail)")
        #expect(views.header.contains("2/5 updates"), "\(views.header)")
        #expect(!views.header.contains("5/5") && !views.header.contains("100%"), "\(views.header)")
        // 2 whole updates and 30 % of the third: 46 %, as the title says.
        #expect(views.header.contains("46%") && views.title.contains("46%"), "\(views.header)\n\(views.title)")
    }

    @Test("Counts kept event by event match a count from scratch, also when a result is given again")
    func tallyMatchesAFreshCount() {
        var scenario = Scenario()
        let job = scenario.queue("Tools", ["jq", "htop", "curl"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, .failed, reason: "exited with status 1")
        // A driver's check of the final state can correct a result it gave (rule 23).
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.startUpdate(job, 1)
        scenario.completeUpdate(job, 1, .aborted)
        let state = scenario.state
        let counted = state.counts(of: state.queue.job(job)!)
        #expect(counted == JobCounts(state.queue.job(job)!))
        #expect(counted.text == "1/3" && counted.aborted == 1 && counted.failed == 0)
    }
}
