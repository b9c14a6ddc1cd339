import Foundation
import Glibc
import InstallEngine
import Testing

@testable import InstallDrivers

/// dnf's end as values: what `DNFTranslator` decides after the helper ended, before and after
/// the rpm database is read. No process runs.
@Suite("dnf: the plan of a transaction's end")
struct DNFEndPlanTests {
    private static let item = DNFPlanItem(action: .install, name: "lab-a", arch: "noarch", newVersion: "1.0-1", size: 1)

    /// A keeper that keeps nothing: only whether the job keeps versions matters here.
    private struct NoKeeper: DNFVersionKeeping {
        var folder: String? { nil }
        func planned(_ plan: DNFPlan) {}
        func record(_ kept: [DNFKeptVersion]) {}
    }

    private func translator(keeping: Bool) -> DNFTranslator {
        let plan = DNFPlan(job: DNFJob(request: .install(["lab-a"])), items: [Self.item], downloadSize: 1)
        return DNFTranslator(plan: plan, database: DNFRPMDatabase(root: nil), rebootRule: DNFRebootRule.of(root: nil),
                             keeper: keeping ? NoKeeper() : nil)
    }

    @Test("Every end reads the rpm database; the kept versions go with it only when the job keeps them")
    func readsTheDatabase() {
        var run = DNFRunState(plan: translator(keeping: false).plan)
        let plan = translator(keeping: false).end(after: .exited(0), killed: nil, in: &run)
        #expect(plan.reports.isEmpty)
        #expect(plan.work != nil && plan.work?.kept == nil)
        #expect(translator(keeping: true).end(after: .exited(0), killed: nil, in: &run).work?.kept == [])
    }

    @Test("A helper killed from outside is a forced stop the job hears first; one a forced stop killed says nothing more")
    func killedFromOutside() {
        var run = DNFRunState(plan: translator(keeping: false).plan)
        let outside = translator(keeping: false).end(after: .signaled(SIGKILL), killed: nil, in: &run)
        #expect(outside.reports.contains { if case .stoppedByForce = $0 { true } else { false } })
        var killed = DNFRunState(plan: translator(keeping: false).plan)
        #expect(translator(keeping: false).end(after: .signaled(SIGKILL), killed: [], in: &killed).reports.isEmpty)
    }

    @Test("What the database holds settles the packages and ends the end")
    func settles() {
        let translator = translator(keeping: false)
        var run = DNFRunState(plan: translator.plan)
        var said: [DriverReport] = []
        #expect(run.eventLine(#"{"event":"rpm-start","count":1}"#, now: Date(), into: &said))
        #expect(run.eventLine(#"{"event":"progress","name":"lab-a","arch":"noarch","action":"install","done":100,"total":100,"step":1,"steps":3}"#,
                              now: Date(), into: &said))
        let plan = translator.end(after: DNFEndFinding(installed: ["lab-a.noarch": ["1.0-1"]], readAt: Date()), of: .exited(0), in: &run)
        #expect(plan.work == nil)
        #expect(plan.reports.contains { if case .updateFinished(0, let verdict) = $0 { verdict.resultCode == .succeeded } else { false } })
    }
}
