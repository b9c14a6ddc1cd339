#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine
import InstallHistory
import EngineWire

/// One `installtop apt upgrade|full-upgrade|install|remove --confirm DURATION`
/// (Documentation/COMMIT-CONFIRMED.md): arming refused, nothing run, when the revert could not
/// be planned (`ArmingRefusal`); the health baseline; the job, here in this process
/// (`APTSession`, never handed to the machine's engine, whose history it may share); the checks
/// again and the window recorded armed with its deadline and regressions; then the wait
/// (`ConfirmCountdown`) until a confirmation keeps the run or the revert undoes it.
struct CommitConfirmedSession {
    let request: PackageRequest
    let options: APTOptions
    let confirm: ConfirmOptions
    let seconds: Double

    func run() -> ExitStatus {
        let name = APTJobKind.summary(of: request)
        guard !options.run.history.noHistory else {
            StandardOutput.stderr.line("installtop: \(name): --confirm needs the history (the revert is the run's undo): drop --no-history")
            return .invalidUsage
        }
        // Off a terminal without --yes nothing runs (the plan is printed): nothing to arm.
        guard options.yes || OutputMode(options: options.run) == .monitor else {
            return APTSession(request: request, options: options, route: .here).run()
        }
        let historyDatabase = options.run.history.historyDb ?? HistoryStore.defaultPath()
        let store: HistoryStore
        do {
            store = try HistoryStore(path: historyDatabase)
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: --confirm needs the history, which cannot be opened: \(error)")
            return .invalidUsage
        }
        let chroot = options.chroot.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let plan: APTPlan
        PlanningNotice.say(name)
        do {
            plan = try APTPlanner.plan(PackageJob(request: request, aptConfig: options.aptConfig, chroot: chroot))
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run:\n\(error.message)")
            return .invalidUsage
        }
        if plan.isEmpty {
            StandardOutput.stdout.line(APTPlanText.nothingToDo(for: request))
            return .succeeded
        }
        let refusals = ArmingRefusal.reasons(for: plan)
        guard refusals.isEmpty else {
            StandardOutput.stderr.line("installtop: \(name): not armed, nothing was run: its revert could not be planned:")
            for refusal in refusals { StandardOutput.stderr.line("  \(refusal)") }
            return .invalidUsage
        }
        for note in ArmingRefusal.rebootNotes(plan.changes) { StandardOutput.stderr.line("installtop: \(name): \(note)") }
        let probe = HealthProbe(commands: confirm.checks, checksDirectory: confirm.checksDir)
        let baseline = probe.observe()
        StandardOutput.stderr.line("installtop: \(name): health before the job: \(HealthProbe.summary(baseline))")

        let before: Int64
        do {
            before = try store.newestRunID()
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: the history cannot be read: \(error)")
            return .invalidUsage
        }
        let jobStatus = APTSession(request: request, options: options, route: .here).run()
        guard let run = try? store.newestRun(after: before, recordedBy: getpid()) else {
            // Declined, or apt refused: no run, nothing to arm.
            StandardOutput.stderr.line("installtop: \(name): nothing is armed: the job recorded no run (declined, or nothing ran)")
            return jobStatus
        }
        let arming = ConfirmWindowArming(
            store: store, baseline: baseline, probe: probe, seconds: seconds, revertOnRegression: confirm.revertOnRegression,
            aptConfig: EngineIdentity.aptRoot(given: options.aptConfig, environment: ProcessInfo.processInfo.environment), chroot: chroot)
        let window: ConfirmWindow
        let checkedAfter: [HealthObservation]
        switch arming.arm(run: run) {
        case .armed(let armed, let checks):
            window = armed
            checkedAfter = checks
        case .notUndoable(let reason):
            StandardOutput.stderr.line("installtop: run \(run) is not armed: it cannot be undone: \(reason)")
            return jobStatus == .succeeded ? .failed : jobStatus
        case .notRecorded(let error):
            StandardOutput.stderr.line("installtop: run \(run) is not armed: the history cannot record it: \(error); "
                + "`installtop apt undo \(run)` puts it back")
            return .failed
        }
        let regressions = window.regressions
        StandardOutput.stderr.line("installtop: run \(run) armed: confirm it by \(ConfirmWindowText.time(window.deadline)) UTC "
            + "with `installtop confirm --run \(run)` (or --extend DURATION), or it is undone from its kept versions")
        StandardOutput.stderr.line("installtop: run \(run): health after the job: \(HealthProbe.summary(checkedAfter))")
        StandardOutput.stderr.line("installtop: run \(run): if this command is stopped, the engine (installtop serve) recording into "
            + "\(historyDatabase) reverts it at the deadline, or at its next start; `installtop apt revert \(run)` reverts it now")
        for regression in regressions {
            StandardOutput.stderr.line("installtop: run \(run): regressed: \(regression.text)")
        }
        if !regressions.isEmpty && !confirm.revertOnRegression {
            StandardOutput.stderr.line("installtop: run \(run): a check regressed: it is reverted at the deadline unless confirmed")
        }
        return ConfirmCountdown(store: store, run: run, historyDatabase: historyDatabase,
                                outputFlag: options.run.json ? "--json" : "--plain", jobStatus: jobStatus).wait()
    }
}
