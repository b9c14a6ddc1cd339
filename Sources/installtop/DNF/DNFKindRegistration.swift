import EngineWire
import InstallDrivers
import InstallEngine
import InstallHistory

/// dnf's package jobs in installtop (`EngineHost.registry`): they run through the helper
/// this binary embeds, keep the versions they take away into the history's undo folder
/// (`HistoryDNFKeeper`), their runs are undone in the root they recorded (`DNFUndoPlanning`),
/// and a run whose engine died is settled from that root's rpm database (`DNFRunRecovery`). Its
/// armed runs are reverted by their undo (`DNFArmedRunRevert`).
struct DNFKindRegistration: KindRegistration {
    var name: String { "dnf" }

    /// dnf jobs have no default root: `aptConfig` is not theirs. A keeper opens the history,
    /// and prunes, only once it has kept something.
    func jobKind(keeping history: HistoryOptions?, aptConfig: String?) -> any JobKind {
        guard let history else { return DNFJobKind(helperFolder: Self.helperFolder()) }
        let keeper: @Sendable (DNFJob) -> (any DNFVersionKeeping)? = { job in
            HistoryDNFKeeper.open(history, jobName: job.request.summary, operation: job.request.operation)
        }
        return DNFJobKind(helperFolder: Self.helperFolder(), keepers: keeper)
    }

    func runSlot(of driver: any JobDriver) -> JobRunSlot? {
        ((driver as? DNFDriver)?.versionKeeper as? HistoryDNFKeeper)?.runSlot
    }

    /// In the root the run recorded: the engine's root is not dnf's.
    func planUndo(of run: JobRun, engineRoot: EngineRoot?, history: HistoryOptions) throws(UndoRefusal) -> PlannedUndo {
        try DNFUndoPlanning.plan(undoing: run, history: history)
    }

    /// Each run in the root it recorded (this system's when none).
    func settle(_ runs: [InterruptedRun]) -> [Int64: RunSettlement] {
        var settlements: [Int64: RunSettlement] = [:]
        for run in runs {
            settlements[run.id] = DNFRunRecovery.settle(run, root: run.origin.installRoot ?? "/")
        }
        return settlements
    }

    func revertArmedRun(_ revert: ArmedRunRevert, store: HistoryStore) -> ExitStatus {
        DNFArmedRunRevert(revert: revert).perform(store: store)
    }

    /// A folder for the dnf helper this binary embeds, written when a dnf job first needs it.
    static func helperFolder() -> DNFHelperFolder {
        DNFHelperFolder(files: DNFHelperFiles.files.map { ShippedFilesFolder.File(name: $0.name, text: $0.text) })
    }
}
