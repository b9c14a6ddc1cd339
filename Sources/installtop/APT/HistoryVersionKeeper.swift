#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import InstallHistory

/// Keeps the versions one `installtop apt …` job replaces in the history's undo folder,
/// `undo/JOBRUN/`, and records them with their sizes under the job's run (rule 33). The run is
/// reserved here when the keeping comes first (before dpkg runs, before the job's first row),
/// through the slot the history's recorder shares for that job. With `--no-history` there is
/// no keeper: nothing is kept and no run is recorded.
final class HistoryVersionKeeper: APTVersionKeeping {
    let store: HistoryStore
    /// The job's run, shared with the recorder (`RunnableJob.runSlot`).
    let runSlot = JobRunSlot()
    /// The name the run has until the job's end names it fully.
    private let jobName: String
    private let operation: UpdateOperation
    /// The keeping started as apt started, until apt's hook takes it (`keep`) or apt ends
    /// without one (`discardAhead`).
    private let ahead = APTKeepingAheadSlot()
    /// The job's arming when it is commit-confirmed (`PackageJob.confirm`): the host's health
    /// is taken as the versions are kept, before dpkg runs; `nil` for a job kept as it ends.
    let arming: EngineArming?

    /// A keeper for the history `options` name; `nil` with `--no-history` or when the history
    /// cannot be opened (the run then says so, as it does for its rows).
    /// - Parameters:
    ///   - arming: an engine's armed job's arming, whose baseline the keeping takes.
    ///   - armed: the job is armed by its own command (`--confirm`), which takes its baseline.
    static func open(_ options: HistoryOptions, jobName: String, operation: UpdateOperation,
                     arming: EngineArming? = nil, armed: Bool = false) -> HistoryVersionKeeper? {
        guard !options.noHistory, let store = try? HistoryStore(path: options.historyDb ?? HistoryStore.defaultPath()) else { return nil }
        return HistoryVersionKeeper(store: store, jobName: jobName, operation: operation, arming: arming, armed: armed || arming != nil)
    }

    private init(store: HistoryStore, jobName: String, operation: UpdateOperation, arming: EngineArming?, armed: Bool) {
        self.store = store
        self.jobName = jobName
        self.operation = operation
        self.arming = arming
        isArmed = armed
    }

    /// An armed job's keeper is asked before dpkg runs even when nothing is replaced (an
    /// engine's arming takes its baseline then), and a version it cannot keep stops the job
    /// there: the revert would need it.
    let isArmed: Bool

    func keepAhead(_ planned: [PackageChange], environment: APTEnvironment) {
        // A run the history cannot reserve is said by `keep`, which tries again.
        guard let run = try? reserveRun(planned, environment: environment) else { return }
        ahead.start(planned, environment: environment, into: store.undoFolder + "/\(run)")
    }

    func discardAhead() {
        ahead.discard()
    }

    var reservedRun: Int64? { runSlot.reserved }

    func planned(_ changes: [PackageChange], environment: APTEnvironment) {
        runSlot.origin = Self.origin(changes, environment: environment)
    }

    /// This engine, `plan` and the root's dpkg.
    private static func origin(_ plan: [PackageChange], environment: APTEnvironment) -> JobRunOrigin {
        JobRunOrigin(writer: .current(), plan: plan, administrativeDirectory: environment.administrativeDirectory,
                     dpkgLog: DpkgLogSource.of(environment)?.logPath)
    }

    func keep(_ changes: [PackageChange], environment: APTEnvironment) -> [APTKeptVersion] {
        // After the keeping, as close to dpkg's start as it gets.
        defer { arming?.takeBaseline() }
        let replacing = changes.filter(APTVersionKeeper.replacesInstalledVersion)
        let run: Int64
        do {
            run = try reserveRun(changes, environment: environment)
        } catch {
            return replacing.map { Self.notKept($0, "the history cannot record a run: \(error)") }
        }
        let kept = ahead.keep(changes, environment: environment, into: store.undoFolder + "/\(run)")
        do {
            try store.recordKept(kept.map { Self.record($0, run: run) })
        } catch {
            return kept.map { APTKeptVersion(package: $0.package, version: $0.version, architecture: $0.architecture,
                                             outcome: .notKept(reason: "the history cannot record it: \(error)")) }
        }
        return kept
    }

    /// The job's run, reserved by the first call (before dpkg runs, before the job's first row)
    /// with this engine, `plan` and the root's dpkg as its origin: if the engine dies, the next
    /// one settles the run from that dpkg (`recoverInterruptedRuns`).
    private func reserveRun(_ plan: [PackageChange], environment: APTEnvironment) throws(HistoryError) -> Int64 {
        try runSlot.id { () throws(HistoryError) -> Int64 in
            try store.reserveJobRun(kind: "apt", name: jobName, operation: operation, startedAt: Date(),
                                    origin: Self.origin(plan, environment: environment))
        }
    }

    /// Prunes the kept versions by age and size (`UndoPruning`'s defaults), after the job was
    /// recorded; a failure is a warning, never the run's.
    func prune() {
        do {
            try UndoPruning().prune(store)
        } catch {
            StandardOutput.stderr.line("installtop: kept versions not pruned: \(error)")
        }
    }

    private static func notKept(_ change: PackageChange, _ reason: String) -> APTKeptVersion {
        APTKeptVersion(package: change.package, version: change.oldVersion ?? "", architecture: change.architecture,
                       outcome: .notKept(reason: reason))
    }

    /// The history row of `kept`, under `run` (the hooks' keeping records the same, rule 37).
    static func record(_ kept: APTKeptVersion, run: Int64) -> KeptVersionRecord {
        switch kept.outcome {
        case .kept(let file, let size, let source):
            return KeptVersionRecord(jobRun: run, package: kept.package, version: kept.version, architecture: kept.architecture,
                                     file: file, sizeBytes: size, source: source.rawValue, conffiles: kept.conffiles,
                                     automatic: kept.automatic)
        case .notKept(let reason):
            return KeptVersionRecord(jobRun: run, package: kept.package, version: kept.version, architecture: kept.architecture,
                                     failure: reason, conffiles: kept.conffiles, automatic: kept.automatic)
        }
    }
}
