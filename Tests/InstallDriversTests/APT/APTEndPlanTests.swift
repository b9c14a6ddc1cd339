import Glibc
import InstallEngine
import Testing

@testable import InstallDrivers

/// apt's end as values: what `APTTranslator` decides after apt-get ended, from apt's words and
/// its exit, and what it decides on each piece of work's finding. No process runs: the work
/// itself (`perform`) is the runner's to carry out.
@Suite("apt: the plan of a transaction's end")
struct APTEndPlanTests {
    private static let base = PackageChange(package: "lab-base", action: .install, newVersion: "1.0")
    private static let app = PackageChange(package: "lab-app", action: .install, newVersion: "1.0")

    private let translator = APTTranslator(
        plan: APTPlan(job: PackageJob(request: .install(["lab-base", "lab-app"])),
                      environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
                      changes: [Self.base, Self.app], downloads: []),
        aptGet: "/usr/bin/apt-get")

    private static let dpkg = ProcessTree.Member(pid: 4242, name: "dpkg")

    /// A run state in which apt finished lab-base (its success held back) and is unpacking lab-app.
    private func midway() -> APTRunState {
        var run = APTRunState(plan: translator.plan, rebootListBefore: [])
        for line in ["pmstatus:lab-base:10:Unpacking lab-base (all)", "pmstatus:lab-base:40:Installed lab-base (all)",
                     "pmstatus:lab-app:50:Unpacking lab-app (all)"] {
            _ = run.statusLine(line, rebootList: { [] })
        }
        return run
    }

    private func finalStates(_ outcome: UpdateRunOutcome, forcedStop: APTForcedStop?, in run: inout APTRunState) -> [DriverReport] {
        let done = APTPackageState(status: "ii", version: "1.0")
        let plan = translator.end(after: .finalStates(["lab-base": done, "lab-app": done], rebootList: [], forcedStop: forcedStop),
                                  of: outcome, in: &run)
        #expect(plan.work == nil, "dpkg's final state ends the end")
        return plan.reports
    }

    @Test("A clean exit reads dpkg's final state and nothing else; its finding settles every package and ends the end")
    func cleanExit() {
        var run = midway()
        let plan = translator.end(after: .exited(0), killed: nil, in: &run)
        guard case .readFinalStates(nil)? = plan.work else {
            Issue.record("\(String(describing: plan.work))")
            return
        }
        #expect(plan.reports.isEmpty)
        let reports = finalStates(.exited(0), forcedStop: nil, in: &run)
        let finished = reports.compactMap { if case .updateFinished(let index, let verdict) = $0 { (index, verdict.resultCode) } else { nil } }
        #expect(finished.map(\.0) == [0, 1] && finished.allSatisfy { $0.1 == .succeeded })
    }

    @Test("apt failing on its own asks what it left unfinished; what the check says is the job's last word before the final state")
    func failedOnItsOwn() {
        var run = midway()
        guard case .checkLeftUnfinished? = translator.end(after: .exited(100), killed: nil, in: &run).work else {
            Issue.record("no check")
            return
        }
        let plan = translator.end(after: .leftUnfinished("run dpkg --configure -a"), of: .exited(100), in: &run)
        #expect(plan.reports == [.jobMessage("run dpkg --configure -a")])
        guard case .readFinalStates(nil)? = plan.work else { Issue.record("no final states"); return }
        #expect(translator.end(after: .leftUnfinished(nil), of: .exited(100), in: &run).reports.isEmpty)
    }

    @Test("A forced stop repairs on the package apt was on: it is cut, taken from apt's words, and the repair is shown on it")
    func forcedStopRepairsOnTheCutPackage() {
        var run = midway()
        let plan = translator.end(after: .signaled(SIGKILL), killed: [Self.dpkg], in: &run)
        guard case .repairAfterKill(let kill)? = plan.work else { Issue.record("no repair"); return }
        #expect(kill.cut == [1] && kill.target == 1 && kill.finishedBeforeKill == nil && kill.unexpected == nil)
        #expect(kill.killed == [Self.dpkg])
        #expect(run.hasFinished(1), "apt's later words no longer change the cut package")
        let forcedStop = APTForcedStop(cut: kill.cut, finishedBeforeKill: nil, statesAfterKill: [:],
                                       repair: APTRepairOutcome(steps: [], fixCommand: "dpkg --configure -a"))
        let after = translator.end(after: .repaired(kill, forcedStop), of: .signaled(SIGKILL), in: &run)
        #expect(after.reports.isEmpty, "installtop's own forced stop says no cause")
        guard case .readFinalStates(let carried?)? = after.work else { Issue.record("no final states"); return }
        #expect(carried.cut == [1])
    }

    @Test("A forced stop past every package shows the repair on the last one apt finished, its held verdict taken for it")
    func forcedStopPastEveryPackage() {
        var run = APTRunState(plan: translator.plan, rebootListBefore: [])
        for line in ["pmstatus:lab-base:10:Unpacking lab-base (all)", "pmstatus:lab-base:40:Installed lab-base (all)"] {
            _ = run.statusLine(line, rebootList: { [] })
        }
        guard case .repairAfterKill(let kill)? = translator.end(after: .signaled(SIGKILL), killed: [], in: &run).work else {
            Issue.record("no repair")
            return
        }
        #expect(kill.cut.isEmpty && kill.target == 0 && kill.finishedBeforeKill?.index == 0)
        #expect(run.takeHeld() == nil, "the held verdict went with the kill")
    }

    @Test("apt-get killed from outside stops the rest first, with dpkg's place from apt's words; the job hears of a forced stop before the repair")
    func killFromOutside() {
        var run = midway()
        let plan = translator.end(after: .signaled(SIGKILL), killed: nil, in: &run)
        guard case .stopTheRest(let end, let place)? = plan.work else { Issue.record("no stop of the rest"); return }
        #expect(end.program == "apt-get" && end.signal == SIGKILL)
        #expect(place == APTUnexpectedEnd.whileDpkg(.unpacking, "lab-app"))
        var found = end
        found.place = place
        let stopped = translator.end(after: .restStopped(killed: [Self.dpkg], end: found), of: .signaled(SIGKILL), in: &run)
        #expect(stopped.reports == [.stoppedByForce(reason: found.sentence)])
        guard case .repairAfterKill(let kill)? = stopped.work else { Issue.record("no repair"); return }
        #expect(kill.unexpected == found && kill.cut == [1] && kill.killed == [Self.dpkg])
        let repair = APTRepairOutcome(steps: [], fixCommand: "dpkg --configure -a")
        let forcedStop = APTForcedStop(cut: kill.cut, finishedBeforeKill: nil, statesAfterKill: [:], repair: repair)
        let repaired = translator.end(after: .repaired(kill, forcedStop), of: .signaled(SIGKILL), in: &run)
        #expect(repaired.reports == [.jobMessage(found.sentence + "; " + repair.verdict)])
    }

    @Test("A graceful stop finishes what it left to dpkg on the last package apt finished; on the stop's own SIGINT what apt-get started is let end first")
    func gracefulStop() {
        var run = midway()
        _ = run.requestStop()
        guard case .repairAfterGracefulStop(let graceful)? = translator.end(after: .exited(0), killed: nil, in: &run).work else {
            Issue.record("no graceful repair")
            return
        }
        #expect(graceful.last?.index == 0 && graceful.target == 0 && graceful.aptEnd == nil)

        var interrupted = midway()
        _ = interrupted.requestStop()
        let plan = translator.end(after: .signaled(SIGINT), killed: nil, in: &interrupted)
        #expect(plan.reports == [.jobMessage(APTTranslator.endedOnTheStop)])
        guard case .letTheRestEnd(let then)? = plan.work else { Issue.record("the rest is not let end"); return }
        #expect(then.aptEnd == APTTranslator.endedOnTheStop && then.target == 0)
        guard case .repairAfterGracefulStop? = translator.end(after: .restEnded(then), of: .signaled(SIGINT), in: &interrupted).work else {
            Issue.record("no graceful repair after the rest ended")
            return
        }
        let ended = translator.end(after: .gracefulRepaired(then, APTRepairOutcome(steps: [], fixCommand: "dpkg --configure -a")),
                                   of: .signaled(SIGINT), in: &interrupted)
        #expect(ended.reports.contains { if case .updateFinished(0, _) = $0 { true } else { false } }, "the last package's verdict carries it")
        guard case .readFinalStates(nil)? = ended.work else { Issue.record("no final states"); return }
    }
}
