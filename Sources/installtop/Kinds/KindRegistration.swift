import EngineWire
import InstallEngine
import InstallHistory
import PatchPolicy

/// A kind of job as installtop registers it, once, in the one list `EngineHost.registry`: the
/// engine's `JobKind` it makes for a process, and what installtop does for its runs besides
/// running them (the run its keeper shares with the recorder, the undo of its runs, what became
/// of a run whose engine died, the revert of its armed runs, what its tool's observed runs keep,
/// the board's rollout, the demo's job). Each is asked by the kind's name (the run's recorded
/// kind) or by the driver, so nothing outside a kind's folder names it. A kind that keeps
/// nothing, undoes nothing and settles nothing (Ansible's, a driver program's) says only its
/// name and job kind: every other member has a default that is right for it.
protocol KindRegistration: Sendable {
    /// The kind's key in manifests and submissions, and the kind its runs record (`JobRun.kind`,
    /// `InterruptedRun.kind`): `apt`.
    var name: String { get }

    /// The job kind the manifest reader, `submit` and `serve` take: its jobs keep the versions
    /// they replace into the history `keeping` names (none when `nil`: validating, submitting
    /// to another engine); `aptConfig` is the root of jobs that name none (`serve
    /// --apt-config`), for a kind that acts on that root. Each call makes a new kind: call its
    /// `removeFiles()` when no job can still start.
    func jobKind(keeping: HistoryOptions?, aptConfig: String?) -> any JobKind

    /// The run `driver`'s keeper shares with the recorder; `nil` when `driver` is not of this
    /// kind or keeps nothing into the history. `nil` by default.
    func runSlot(of driver: any JobDriver) -> JobRunSlot?

    /// Plans `run`'s undo (a run of this kind), for `UndoQueuing` to queue awaiting the
    /// operator's yes: in `engineRoot` (the root the engine acts on; `nil` when it has none)
    /// or in the root the run recorded, as the kind's runs are undone; what the undo replaces
    /// is kept into `history`. By default refused: the kind's runs are not undone.
    /// - Throws: `UndoRefusal` (nothing planned, nothing left behind).
    func planUndo(of run: JobRun, engineRoot: EngineRoot?, history: HistoryOptions) throws(UndoRefusal) -> PlannedUndo

    /// What became of each of `runs` (runs of this kind whose engine died before the
    /// transaction ended), by run id: the tool went on without installtop, so its own records
    /// say. A run missing from the answer is left as it is (no word on it); by default every one.
    func settle(_ runs: [InterruptedRun]) -> [Int64: RunSettlement]

    /// What became of observed rows (rule 30) an engine left running when it died, for a kind
    /// whose tool's transactions are observed (apt's: dpkg's hooks, lock and log), by row id:
    /// the rows of its tool it has a verdict for, from the tool's own records. A row missing
    /// from the answer is recorded as interrupted (rule 20); by default every one.
    func settleObservedRows(_ rows: [HistoryEntry]) -> [Int64: RecoveredResult]

    /// What the kind's tool has half-way now in the database `administrativeDirectory` (a
    /// path its runs record: dpkg's), by package, for the history's runs, whose undoability
    /// follows it (`HistoryStore.jobRuns`); empty for a database not the kind's, and by default.
    func halfWayPackages(administrativeDirectory: String) -> [String: HalfWayPackage]

    /// The process that holds the kind's tool's lock of the database `administrativeDirectory`
    /// (a path its runs record: dpkg's) now, `0` when it is held by a process that cannot be
    /// named; `nil` when it is free, the database is not the kind's, and by default.
    func lockHolder(administrativeDirectory: String) -> Int32?

    /// Reverts the run of `revert`'s window (a commit-confirmed run of this kind, whose revert
    /// this process claimed): its undo from its kept versions, as the kind's undo command plans
    /// it, waiting while another transaction holds the tool's lock; it ends with
    /// `revert.recordReverted` (`.reverted`) or `revert.expire` (`.failed`, and why). By default
    /// the window is recorded expired: the kind's runs are not armed, so none is reverted.
    func revertArmedRun(_ revert: ArmedRunRevert, store: HistoryStore) -> ExitStatus

    /// The arming of `driver`'s job (an engine's job armed with a confirm window,
    /// `EngineArmings`) and the run its keeper shares with the recorder; `nil` when `driver`
    /// is not of this kind or its job is not armed, and by default.
    func engineArming(of driver: any JobDriver) -> (arming: EngineArming, slot: JobRunSlot)?

    /// What the board's rollout (`U`, `D` in `installtop attach --host`) submits to each host:
    /// an upgrade (`full`: the full one) of the host's own system, armed for `confirmSeconds`
    /// when given; `nil` for a kind the board does not roll out, and by default.
    var rolloutJob: (@Sendable (_ full: Bool, _ confirmSeconds: Double?) -> JobSubmission)? { get }

    /// The runner that patches a night's hosts with this kind (`installtop patch --policy`);
    /// `nil` when the kind patches no host in a night.
    func nightHostRunner(_ night: NightHosts) -> (any NightHostRunner)?

    /// Keeping for undo in a run of the kind's tool that installtop only observes (rule 37,
    /// `installtop hooks keep begin|end`, run by the hooks `hooks install --keep-for-undo`
    /// writes), into `store`; `nil` for a kind whose tool's runs are not observed, and by default.
    func observedRunKeeping(store: HistoryStore) -> (any ObservedRunKeeping)?

    /// The kind's job in `installtop demo`, built and planned before the demo's run starts
    /// (it says on stderr why when it cannot be, and returns `nil`); `nil` by default: the
    /// kind has none.
    func demoJob() -> (any DemoKindJob)?
}

extension KindRegistration {
    func runSlot(of driver: any JobDriver) -> JobRunSlot? { nil }

    func planUndo(of run: JobRun, engineRoot: EngineRoot?, history: HistoryOptions) throws(UndoRefusal) -> PlannedUndo {
        throw UndoRefusal(message: "run \(run.id) is a \(run.kind) run, which installtop does not undo")
    }

    func settle(_ runs: [InterruptedRun]) -> [Int64: RunSettlement] { [:] }

    func settleObservedRows(_ rows: [HistoryEntry]) -> [Int64: RecoveredResult] { [:] }

    func halfWayPackages(administrativeDirectory: String) -> [String: HalfWayPackage] { [:] }

    func lockHolder(administrativeDirectory: String) -> Int32? { nil }

    func revertArmedRun(_ revert: ArmedRunRevert, store: HistoryStore) -> ExitStatus {
        revert.expire("installtop does not revert a \(name) run", store: store)
    }

    func engineArming(of driver: any JobDriver) -> (arming: EngineArming, slot: JobRunSlot)? { nil }

    var rolloutJob: (@Sendable (_ full: Bool, _ confirmSeconds: Double?) -> JobSubmission)? { nil }

    func nightHostRunner(_ night: NightHosts) -> (any NightHostRunner)? { nil }

    func observedRunKeeping(store: HistoryStore) -> (any ObservedRunKeeping)? { nil }

    func demoJob() -> (any DemoKindJob)? { nil }
}
