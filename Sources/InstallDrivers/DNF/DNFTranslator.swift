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

    /// Reads what the rpm database holds of every package of the plan, then settles each. A
    /// helper ended by a signal installtop did not send (`kill -9`, the OOM killer) is a forced
    /// stop (rule 25a): the job hears so first, and rpm's database says what was done. Its end
    /// by the stop's own SIGINT is the stop's (`DNFRunState.ended(by:)`).
    func finish(after outcome: UpdateRunOutcome, killed: [ProcessTree.Member]?, runner: LineDriverRunner<DNFTranslator>) {
        if killed == nil, case .signaled(let signal) = outcome {
            runner.deliver { run in run.ended(by: signal) }
        }
        if let keeper {
            let kept = runner.deliver { run in ([], run.kept) }
            keeper.record(database.readBack(kept))
        }
        let names = Set(plan.items.map(\.name))
        let installed = database.installed(names)
        runner.deliver { run in run.settle(outcome: outcome, installed: installed, rebootRule: rebootRule, now: Date()) }
    }
}
