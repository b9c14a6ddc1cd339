#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallDrivers
import InstallEngine
import InstallHistory
import PatchPolicy

/// apt's package jobs in installtop (`EngineHost.registry`): they keep the versions they
/// replace into the history's undo folder (`HistoryVersionKeeper`), their runs are undone in
/// the engine's apt root (`APTUndoPlanning`), and a run whose engine died is settled from dpkg
/// (`APTRunRecovery`; observed runs are apt's too, and its hooks keep for their undo). Its armed
/// runs are reverted by their undo (`APTArmedRunRevert`), an engine's armed jobs are its own
/// (`HistoryVersionKeeper.arming`), the board rolls out its upgrades (`RolloutJob`), and the
/// demo runs its job in a private root (`DemoAPTJob`).
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

    /// In the engine's root (its configuration file is apt's); refused when it has none.
    func planUndo(of run: JobRun, engineRoot: EngineRoot?, history: HistoryOptions) throws(UndoRefusal) -> PlannedUndo {
        guard let root = engineRoot else {
            throw UndoRefusal(message: "run \(run.id) is an apt run, and this engine acts on no apt root: installtop apt undo \(run.id) undoes it")
        }
        return try APTUndoPlanning.plan(undoing: run, aptConfig: root.configFile, chroot: root.chroot, history: history)
    }

    func settle(_ runs: [InterruptedRun]) -> [Int64: RunSettlement] {
        APTRunRecovery.settle(runs)
    }

    /// Observed rows are dpkg's: settled from dpkg's state and log in the database each recorded.
    func settleObservedRows(_ rows: [HistoryEntry]) -> [Int64: RecoveredResult] {
        ObservedRowRecovery.settle(rows)
    }

    /// From dpkg: an administrative directory is dpkg's database.
    func halfWayPackages(administrativeDirectory: String) -> [String: HalfWayPackage] {
        HalfWayLookup.packages(administrativeDirectory: administrativeDirectory)
    }

    /// dpkg's front-end lock: an administrative directory is dpkg's database.
    func lockHolder(administrativeDirectory: String) -> Int32? {
        guard case .held(let pid) = DpkgLock.state(administrativeDirectory: administrativeDirectory) else { return nil }
        return pid
    }

    func revertArmedRun(_ revert: ArmedRunRevert, store: HistoryStore) -> ExitStatus {
        APTArmedRunRevert(revert: revert).perform(store: store)
    }

    func engineArming(of driver: any JobDriver) -> (arming: EngineArming, slot: JobRunSlot)? {
        guard let keeper = (driver as? APTDriver)?.versionKeeper as? HistoryVersionKeeper, let arming = keeper.arming else { return nil }
        return (arming, keeper.runSlot)
    }

    var rolloutJob: (@Sendable (_ full: Bool, _ confirmSeconds: Double?) -> JobSubmission)? {
        RolloutJob.boardSubmission(full:confirmSeconds:)
    }

    /// A night's hosts are patched with apt (`APTNightHostRunner`).
    func nightHostRunner(_ night: NightHosts) -> (any NightHostRunner)? {
        APTNightHostRunner(night)
    }

    /// apt's hooks, under `APT_CONFIG` as apt hands it to them.
    func observedRunKeeping(store: HistoryStore) -> (any ObservedRunKeeping)? {
        ObservedUndoKeeping(store: store, aptConfig: ProcessInfo.processInfo.environment["APT_CONFIG"])
    }

    func demoJob() -> (any DemoKindJob)? {
        DemoAPTJob.prepare()
    }
}
