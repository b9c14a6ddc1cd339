import EngineWire
import InstallEngine
import InstallHistory

/// What installtop does for one kind of package job besides running it, registered once for
/// every kind (`EngineHost.packageKinds`): the job kind itself with the keeper of the versions
/// its jobs replace, the run that keeper shares with the recorder, the undo of its runs, and
/// what became of a run whose engine died. Each is asked by the run's or the driver's kind, so
/// nothing outside a kind's folder names it.
protocol PackageKindSupport: Sendable {
    /// The kind's name as its runs record it (`JobRun.kind`, `InterruptedRun.kind`).
    var name: String { get }

    /// The job kind the manifest reader, `submit` and `serve` take: its jobs keep the versions
    /// they replace into the history `keeping` names (none when `nil`: validating, submitting
    /// to another engine); `aptConfig` is the root of jobs that name none, when the kind has one.
    func jobKind(keeping: HistoryOptions?, aptConfig: String?) -> any JobKind

    /// The run `driver`'s keeper shares with the recorder; `nil` when `driver` is not of this
    /// kind or keeps nothing into the history.
    func runSlot(of driver: any JobDriver) -> JobRunSlot?

    /// Plans `run`'s undo (a run of this kind) and queues it awaiting the operator's yes, as
    /// `queuing` says where; returns the job's number.
    /// - Throws: `UndoRefusal` (nothing queued, nothing changed).
    func queueUndo(of run: JobRun, with queuing: UndoQueuing) throws(UndoRefusal) -> Int

    /// What became of each of `runs` (runs of this kind whose engine died before the
    /// transaction ended), by run id: the tool went on without installtop, so its own records
    /// say. A run missing from the answer is left as it is (no word on it).
    func settle(_ runs: [InterruptedRun]) -> [Int64: RunSettlement]
}
