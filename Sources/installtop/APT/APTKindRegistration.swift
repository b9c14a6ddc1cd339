#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallDrivers
import InstallEngine
import InstallHistory

/// apt's package jobs in installtop (`EngineHost.registry`): they keep the versions they
/// replace into the history's undo folder (`HistoryVersionKeeper`), their runs are undone in
/// the engine's apt root (`APTUndoQueuing`), and a run whose engine died is settled from dpkg
/// (`APTRunRecovery`; observed runs are apt's too).
struct APTKindRegistration: KindRegistration {
    var name: String { "apt" }

    /// Kept versions are pruned as each job's keeper is made, before the job keeps more.
    func jobKind(keeping history: HistoryOptions?, aptConfig: String?) -> any JobKind {
        guard let history else { return APTJobKind(defaultAPTConfig: aptConfig) }
        let keeper: @Sendable (PackageJob) -> (any APTVersionKeeping)? = { job in
            // An armed job's window names the root it acted on, as `--confirm`'s does.
            let arming = job.confirm.map { request in
                EngineArming(request: request, aptConfig: EngineIdentity.aptRoot(given: job.aptConfig, environment: ProcessInfo.processInfo.environment),
                             chroot: job.chroot)
            }
            let keeper = HistoryVersionKeeper.open(history, jobName: APTJobKind.summary(of: job.request), operation: job.request.operation,
                                                   arming: arming)
            keeper?.prune()
            return keeper
        }
        return APTJobKind(keepers: keeper, defaultAPTConfig: aptConfig)
    }

    func runSlot(of driver: any JobDriver) -> JobRunSlot? {
        ((driver as? APTDriver)?.versionKeeper as? HistoryVersionKeeper)?.runSlot
    }

    /// Refused when the engine acts on no apt root (`UndoQueuing.aptRoot`).
    func queueUndo(of run: JobRun, with queuing: UndoQueuing) throws(UndoRefusal) -> Int {
        guard let root = queuing.aptRoot else {
            throw UndoRefusal(message: "run \(run.id) is an apt run, and this engine acts on no apt root: installtop apt undo \(run.id) undoes it")
        }
        return try APTUndoQueuing(queue: queuing.queue, history: queuing.history, aptConfig: root.aptConfig, chroot: root.chroot,
                                  slots: queuing.slots, warn: queuing.warn).queueUndo(of: run)
    }

    func settle(_ runs: [InterruptedRun]) -> [Int64: RunSettlement] {
        APTRunRecovery.settle(runs)
    }
}
