#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// The helper's side of a running dnf job, on `LineDriverRunner`: its events (fd 3) and dnf's
/// lines through the pure `DNFRunState`, SIGINT to the helper for a stop (which it obeys only
/// before rpm's transaction), a forced stop refused while rpm runs, and every verdict read from
/// the rpm database once it has ended.
struct DNFTranslator: LineTranslator {
    let plan: DNFPlan
    let database: DNFRPMDatabase
    let rebootRule: DNFRebootRule
    let keeper: (any DNFVersionKeeping)?

    func translate(_ lines: ArraySlice<ToolLine>, in run: inout DNFRunState, into reports: inout [DriverReport]) {
        let now = Date()
        for line in lines {
            if let stream = line.stream {
                run.outputLine(line.text, on: stream, into: &reports)
            } else if !run.eventLine(line.text, now: now, into: &reports) {
                reports.append(.ignoredLine)
            }
        }
    }

    func stopRequested(in run: inout DNFRunState) -> [DriverReport] {
        run.requestStop()
    }

    /// SIGINT to the helper alone: before rpm's transaction it ends at once, during it the
    /// helper says the stop waits and goes on (rpm itself blocks signals while it runs).
    func askToStop(_ process: ChildProcess) {
        process.interrupt()
    }

    func killRefusal(in run: DNFRunState) -> [DriverReport]? {
        run.killRefusal()
    }

    /// The helper's end, on values: a helper ended by a signal installtop did not send
    /// (`kill -9`, the OOM killer) is a forced stop (rule 25a), which the job hears first; its
    /// end by the stop's own SIGINT is the stop's (`DNFRunState.ended(by:)`). Then the rpm
    /// database is read, whatever the end.
    func end(after outcome: UpdateRunOutcome, killed: [ProcessTree.Member]?, in run: inout DNFRunState) -> ToolEndPlan<DNFEndWork> {
        var reports: [DriverReport] = []
        if killed == nil, case .signaled(let signal) = outcome { reports = run.ended(by: signal) }
        return ToolEndPlan(reports: reports, work: DNFEndWork(kept: keeper == nil ? nil : run.kept))
    }

    /// Records what the helper kept (read back by rpm) with the keeper, and reads what the rpm
    /// database holds of every package of the plan.
    func perform(_ work: DNFEndWork, say: @escaping (_ make: (inout DNFRunState) -> [DriverReport]) -> Void) -> DNFEndFinding {
        if let keeper, let kept = work.kept {
            keeper.record(database.readBack(kept))
        }
        return DNFEndFinding(installed: database.installed(Set(plan.items.map(\.name))), readAt: Date())
    }

    /// Settles every package from what the rpm database held; the end is over.
    func end(after finding: DNFEndFinding, of outcome: UpdateRunOutcome, in run: inout DNFRunState) -> ToolEndPlan<DNFEndWork> {
        ToolEndPlan(reports: run.settle(outcome: outcome, installed: finding.installed, rebootRule: rebootRule, now: finding.readAt))
    }
}
