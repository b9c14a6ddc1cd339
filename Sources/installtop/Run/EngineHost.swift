import EngineWire
import InstallDrivers
import InstallEngine
import InstallHistory
import PatchPolicy
import RestartScan

/// The engine of a process that owns one (`run`, `demo` and `serve`): the job queue on real
/// child processes and the install history recording its events, built in one place.
struct EngineHost {
    let queue: JobQueue
    /// Where the history is read from: the store the queue records into, or why there is none.
    let history: HistorySource

    /// The kinds of job installtop runs besides lists of commands, registered here once, in
    /// the order manifests' error messages list their keys: a new kind is its folders plus one
    /// line here. Each makes its `JobKind` and says what installtop does for its runs besides
    /// running them (its keeper, its undo, the settling of a run whose engine died:
    /// `KindRegistration`).
    static let registry: [any KindRegistration] = [
        APTKindRegistration(),
        DNFKindRegistration(),
        AnsibleKindRegistration(),
        DriverKindRegistration(),
    ]

    /// The kind of `registry` (this process's) whose runs record `name` (`JobRun.kind`); `nil`
    /// for none.
    static func registration(named name: String, in registry: [any KindRegistration] = registry) -> (any KindRegistration)? {
        registry.first { $0.name == name }
    }

    /// The registry's job kinds, which the manifest reader, `submit`, the planner of `run` and
    /// the engine of `serve` take. Each call makes new kinds: call `removeFiles()` on them when
    /// no job can still start (the helper's and plugin's folders).
    /// - Parameter keeping: the history package jobs keep the versions they replace into, for
    ///   undo (`run`, `serve`); `nil` (validating, submitting to another engine) keeps none.
    /// - Parameter aptConfig: the root of apt jobs that name none (`serve --apt-config`).
    /// - Parameter registry: the kinds; this process's by default (a test adds its own).
    static func kinds(keeping: HistoryOptions? = nil, aptConfig: String? = nil, registry: [any KindRegistration] = registry) -> JobKinds {
        JobKinds(registry.map { $0.jobKind(keeping: keeping, aptConfig: aptConfig) })
    }

    /// The run `driver`'s keeper shares with the recorder (`RunnableJob.runSlot`), whichever
    /// kind it is of; `nil` for a driver that keeps nothing into the history.
    static func runSlot(of driver: (any JobDriver)?) -> JobRunSlot? {
        guard let driver else { return nil }
        return registry.lazy.compactMap { $0.runSlot(of: driver) }.first
    }

    /// What became of runs whose engine died (`HistoryStore.recoverInterruptedRuns`), each
    /// settled by the kind that ran it; a run of a kind not registered is left as it is.
    static func settleInterruptedRuns(_ runs: [InterruptedRun]) -> [Int64: RunSettlement] {
        var settlements: [Int64: RunSettlement] = [:]
        for (name, ofKind) in Dictionary(grouping: runs, by: \.kind) {
            guard let kind = registration(named: name) else { continue }
            settlements.merge(kind.settle(ofKind)) { first, _ in first }
        }
        return settlements
    }

    /// What became of observed rows left running by an engine that died
    /// (`HistoryStore.recoverInterruptedEntries`), each settled by the kind whose tool's
    /// transactions are observed; a row no kind has a verdict for is recorded as interrupted.
    static func settleObservedRows(_ rows: [HistoryEntry]) -> [Int64: RecoveredResult] {
        var verdicts: [Int64: RecoveredResult] = [:]
        for kind in registry {
            verdicts.merge(kind.settleObservedRows(rows)) { first, _ in first }
        }
        return verdicts
    }

    /// What is half-way now in the database `administrativeDirectory` a run recorded, as the
    /// kind whose database it is says (`HistoryStore.jobRuns`' `halfWay`: the history cannot
    /// read a tool's database itself); empty when no kind says anything.
    static func halfWayPackages(administrativeDirectory: String) -> [String: HalfWayPackage] {
        var packages: [String: HalfWayPackage] = [:]
        for kind in registry {
            packages.merge(kind.halfWayPackages(administrativeDirectory: administrativeDirectory)) { first, _ in first }
        }
        return packages
    }

    /// The process holding the lock of the database `administrativeDirectory` (a run's
    /// recorded one) now, as the kind whose database it is says (`0`: one that cannot be
    /// named); `nil` when it is free or no kind knows it.
    static func lockHolder(administrativeDirectory: String) -> Int32? {
        registry.lazy.compactMap { $0.lockHolder(administrativeDirectory: administrativeDirectory) }.first
    }

    /// The arming of `driver`'s job (`EngineArmings`), with the kind whose tool reverts it
    /// (the window's `tool`), whichever kind it is of; `nil` for a job not armed.
    static func arming(of driver: (any JobDriver)?) -> (tool: String, arming: EngineArming, slot: JobRunSlot)? {
        guard let driver else { return nil }
        for kind in registry {
            if let (arming, slot) = kind.engineArming(of: driver) { return (kind.name, arming, slot) }
        }
        return nil
    }

    /// What the board's rollout submits to each host: the first registered kind's that rolls
    /// out upgrades (`KindRegistration.rolloutJob`); `nil` when none does (the board then
    /// refuses `U` and `D`).
    static var rolloutJob: (@Sendable (_ full: Bool, _ confirmSeconds: Double?) -> JobSubmission)? {
        registry.lazy.compactMap(\.rolloutJob).first
    }

    /// The runner that patches a night's hosts: the first registered kind's that has one
    /// (`KindRegistration.nightHostRunner`); `nil` when none does.
    static func nightHostRunner(_ night: NightHosts) -> (any NightHostRunner)? {
        registry.lazy.compactMap { $0.nightHostRunner(night) }.first
    }

    /// The keeping for undo of the observed runs the hooks report (`installtop hooks keep`):
    /// the first registered kind's whose tool's runs are observed; `nil` when none's are.
    static func observedRunKeeping(store: HistoryStore) -> (any ObservedRunKeeping)? {
        registry.lazy.compactMap { $0.observedRunKeeping(store: store) }.first
    }

    /// Where the observed jobs of an engine that serves (`serve`, `hooks watch`) come from,
    /// registered here once, next to the kinds: dpkg's hooks, and its lock and log in the root
    /// `aptConfig` names (this system's when `nil`). A new source is one more line here.
    static func observedSources(aptConfig: String?, cancellation: CommandCancellation? = nil) -> ObservedSources {
        ObservedSources([
            DpkgObservedSource(dpkgLog: DpkgLogSource.resolve(aptConfig: aptConfig, cancellation: cancellation)),
        ])
    }

    /// Builds the queue from `scheduling` (one job at a time with the manifest's graces when
    /// `nil`) and attaches the history unless `--no-history`: rows left by writers that died are
    /// recovered first (an observed job's by the kind whose tool's transactions are observed, `settleObservedRows`). A history that cannot be opened is no reason to refuse the installs:
    /// `warnings` gets why, and `history` says so.
    /// - Parameter runSlots: the run slot the recorder shares with a job's keeper, by job
    ///   (`RunnableJob.runSlot`).
    init(scheduling: SchedulingOptions?, history options: HistoryOptions, warnings: Warnings,
         runSlots: @escaping @Sendable (JobDescriptor) -> JobRunSlot? = { _ in nil }) {
        queue = JobQueue(backend: ProcessBackend(), concurrency: scheduling?.concurrency ?? 1,
                         configuration: scheduling?.configuration ?? EngineConfiguration(), restartAdvisor: RestartScanner())
        guard !options.noHistory else {
            history = .off("history is off (--no-history)")
            return
        }
        do {
            let store = try HistoryStore(path: options.historyDb ?? HistoryStore.defaultPath())
            try store.recoverFromDeadEngines()
            let recorder = HistoryRecorder(store: store, onDeferredError: { error in
                warnings.add("history not recorded: \(error)")
            }, sharedRunSlot: runSlots)
            queue.subscribe { event in
                do { try recorder.record(event) } catch { warnings.add("history not recorded: \(error)") }
            }
            history = .store(store)
        } catch {
            warnings.add("running without history: \(error)")
            history = .off("history is unavailable: \(error)")
        }
    }
}
