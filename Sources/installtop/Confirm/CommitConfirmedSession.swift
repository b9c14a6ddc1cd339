#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import InstallHistory

/// One `installtop apt upgrade|full-upgrade|install|remove --confirm DURATION` or
/// `installtop dnf upgrade|install|remove --confirm DURATION`
/// (Documentation/COMMIT-CONFIRMED.md): arming refused, nothing run, when the revert could not
/// be planned (`Job.prepare`, by the tool's own rules); the health baseline; the
/// job, here in this process (never handed to the machine's engine, whose history it may
/// share); the checks again and the window recorded armed with its deadline, its regressions
/// and the tool and root of its revert; then the wait (`ConfirmCountdown`) until a
/// confirmation keeps the run or the revert undoes it.
struct CommitConfirmedSession<Job: ArmedJob> {
    let job: Job
    let confirm: ConfirmOptions
    let seconds: Double

    func run() -> ExitStatus {
        let name = job.name
        guard !job.runOptions.history.noHistory else {
            StandardOutput.stderr.line("installtop: \(name): --confirm needs the history (the revert is the run's undo): drop --no-history")
            return .invalidUsage
        }
        // Off a terminal without --yes nothing runs (the plan is printed): nothing to arm.
        guard job.yes || OutputMode(options: job.runOptions) == .monitor else { return job.runUnarmed() }
        let historyDatabase = job.runOptions.history.historyDb ?? HistoryStore.defaultPath()
        let store: HistoryStore
        do {
            store = try HistoryStore(path: historyDatabase)
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: --confirm needs the history, which cannot be opened: \(error)")
            return .invalidUsage
        }
        switch job.prepare() {
        case .nothingToDo(let line):
            StandardOutput.stdout.line(line)
            return .succeeded
        case .unplanned(let message):
            StandardOutput.stderr.line("installtop: \(name): nothing was run:\n\(message)")
            return .invalidUsage
        case .refused(let refusals):
            StandardOutput.stderr.line("installtop: \(name): not armed, nothing was run: its revert could not be planned:")
            for refusal in refusals { StandardOutput.stderr.line("  \(refusal)") }
            return .invalidUsage
        case .armable(let rebootOnly):
            for package in rebootOnly { StandardOutput.stderr.line("installtop: \(name): \(PackageChange.rebootOnlyNote(package))") }
        }
        let systemd = SystemdTools.current()
        let probe = HealthProbe(commands: confirm.checks, checksDirectory: confirm.checksDir, systemd: systemd)
        let baseline = probe.observe()
        // Which services the job restarts, by their invocations before and after it: a revert
        // restarts them again (nil where systemd does not run).
        let services = ServiceInvocations(tools: systemd)
        let servicesBefore = services.now()
        StandardOutput.stderr.line("installtop: \(name): health before the job: \(HealthProbe.summary(baseline))")

        let before: Int64
        do {
            before = try store.newestRunID()
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: the history cannot be read: \(error)")
            return .invalidUsage
        }
        let jobStatus = job.runJob()
        guard let run = try? store.newestRun(after: before, recordedBy: getpid()) else {
            // Declined, or the tool refused: no run, nothing to arm.
            StandardOutput.stderr.line("installtop: \(name): nothing is armed: the job recorded no run (declined, or nothing ran)")
            return jobStatus
        }
        let servicesAfter = services.now()
        let restartedServices = ServiceInvocations.restarted(before: servicesBefore, after: servicesAfter)
        let arming = ConfirmWindowArming(store: store, baseline: baseline, probe: probe, seconds: seconds,
                                         revertOnRegression: confirm.revertOnRegression, locate: { window in
                                             job.locate(&window)
                                             window.restartedServices = restartedServices
                                         }, halfWay: job.halfWay(in:))
        let window: ConfirmWindow
        let checkedAfter: [HealthObservation]
        switch arming.arm(run: run) {
        case .armed(let armed, let checks):
            window = armed
            checkedAfter = checks
        case .notUndoable(let reason):
            // A version not kept stops an armed job before dpkg (`APTVersionKeeping.isArmed`).
            StandardOutput.stderr.line("installtop: run \(run) is not armed: it cannot be undone: \(reason)"
                + (jobStatus == .aborted ? "; the job stopped before dpkg changed anything" : ""))
            return jobStatus == .succeeded ? .failed : jobStatus
        case .notRecorded(let error):
            StandardOutput.stderr.line("installtop: run \(run) is not armed: the history cannot record it: \(error); "
                + "`installtop \(job.tool) undo \(run)` puts it back")
            return .failed
        }
        let regressions = window.regressions
        // The deadline handed to systemd too, which outlives this command and the engine.
        let timer = RevertTimer.schedule(window: window, historyDatabase: historyDatabase, tools: systemd)
        StandardOutput.stderr.line("installtop: run \(run) armed: confirm it by \(ConfirmWindowText.time(window.deadline)) UTC "
            + "with `installtop confirm --run \(run)` (or --extend DURATION), or it is undone from its kept versions")
        StandardOutput.stderr.line("installtop: run \(run): health after the job: \(HealthProbe.summary(checkedAfter))")
        StandardOutput.stderr.line("installtop: run \(run): if this command is stopped, "
            + timer.whoReverts(run: run, historyDatabase: historyDatabase) + "; `installtop \(job.tool) revert \(run)` reverts it now")
        if let restarted = window.restartedServices, !restarted.isEmpty {
            StandardOutput.stderr.line("installtop: run \(run): the job restarted \(restarted.joined(separator: " ")): a revert restarts them again")
        }
        for regression in regressions {
            StandardOutput.stderr.line("installtop: run \(run): regressed: \(regression.text)")
        }
        if !regressions.isEmpty && !confirm.revertOnRegression {
            StandardOutput.stderr.line("installtop: run \(run): a check regressed: it is reverted at the deadline unless confirmed")
        }
        return ConfirmCountdown(store: store, run: run, tool: job.tool, historyDatabase: historyDatabase,
                                outputFlag: job.runOptions.json ? "--json" : "--plain", jobStatus: jobStatus).wait()
    }
}
