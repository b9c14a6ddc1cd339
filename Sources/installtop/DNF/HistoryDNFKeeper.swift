#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine
import InstallHistory
import Synchronization
import TextBasics

/// Keeps the versions one dnf job takes away in the history's undo folder and records them
/// under the job's run (Documentation/DNF-JOBS.md, "Undo"). The helper keeps each rpm before
/// rpm's transaction into a folder of this job's (`undo/.dnf-PID-N/`, made when the job first
/// asks for it), since with `--yes` the helper starts before the job, and so its run, exists;
/// `record` then moves the files into `undo/RUN/`, the run the recorder shares through
/// `runSlot`. The history is opened only then, when something was kept (and kept versions are
/// pruned then): a plan, or a transaction that replaces nothing, costs it nothing. With
/// `--no-history` there is no keeper: nothing is kept.
final class HistoryDNFKeeper: DNFVersionKeeping {
    /// The history database the run is recorded in, and its undo folder.
    let database: String
    let undoFolder: String
    /// The job's run, shared with the recorder (`RunnableJob.runSlot`).
    let runSlot = JobRunSlot()
    private let jobName: String
    private let operation: UpdateOperation
    /// The folder the helper keeps into, once made; `.some(nil)` when it could not be made.
    private let made = Mutex<String??>(nil)
    private static let counter = Atomic<Int>(0)
    private static let prefix = ".dnf-"
    /// What a dnf kept version's `conffiles` say of each `%config` file a rebuild took as
    /// edited (an apt one's hold dpkg's hashes).
    static let edited = "edited"

    /// A keeper for the history `options` name; `nil` with `--no-history`.
    static func open(_ options: HistoryOptions, jobName: String, operation: UpdateOperation) -> HistoryDNFKeeper? {
        guard !options.noHistory else { return nil }
        return HistoryDNFKeeper(database: options.historyDb ?? HistoryStore.defaultPath(), jobName: jobName, operation: operation)
    }

    private init(database: String, jobName: String, operation: UpdateOperation) {
        self.database = database
        undoFolder = HistoryStore.undoFolder(forDatabase: database)
        self.jobName = jobName
        self.operation = operation
    }

    var folder: String? {
        made.withLock { made in
            if let made { return made }
            // Folders of keepers whose process is gone (installtop killed before its job ended).
            Self.removeAbandonedFolders(in: undoFolder)
            let folder = undoFolder + "/\(Self.prefix)\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)"
            do {
                try Self.makePrivateFolder(undoFolder)
                try Self.makePrivateFolder(folder)
                made = .some(folder)
            } catch {
                StandardOutput.stderr.line("installtop: \(jobName): nothing is kept for undo: cannot make \(folder): \(ErrorText.reason(error))")
                made = .some(nil)
            }
            return made ?? nil
        }
    }

    func planned(_ plan: DNFPlan) {
        runSlot.origin = JobRunOrigin(writer: .current(), plan: plan.items.map(\.change), administrativeDirectory: nil, dpkgLog: nil,
                                      installRoot: plan.job.installRoot ?? "/")
    }

    func record(_ kept: [DNFKeptVersion]) {
        guard let folder = made.withLock({ $0 ?? nil }) else { return }
        // The folder goes whatever happens: what is recorded was moved out of it first.
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard !kept.isEmpty else { return }
        let store: HistoryStore
        do {
            store = try HistoryStore(path: database)
        } catch {
            StandardOutput.stderr.line("installtop: \(jobName): nothing is kept for undo: \(error)")
            return
        }
        let run: Int64
        do {
            run = try runSlot.id { () throws(HistoryError) -> Int64 in
                try store.reserveJobRun(kind: "dnf", name: jobName, operation: operation, startedAt: Date(), origin: runSlot.origin)
            }
        } catch {
            StandardOutput.stderr.line("installtop: \(jobName): nothing is kept for undo: the history cannot record a run: \(error)")
            return
        }
        let runFolder = undoFolder + "/\(run)"
        let records = kept.map { version -> KeptVersionRecord in
            switch version.outcome {
            case .kept(let file, let size, let source):
                let target = runFolder + "/" + (file.split(separator: "/").last.map(String.init) ?? file)
                do {
                    try Self.makePrivateFolder(runFolder)
                    try FileManager.default.moveItem(atPath: file, toPath: target)
                } catch {
                    return KeptVersionRecord(jobRun: run, package: version.name, version: version.version, architecture: version.arch,
                                             failure: "cannot move it into \(runFolder): \(ErrorText.reason(error))")
                }
                return KeptVersionRecord(jobRun: run, package: version.name, version: version.version, architecture: version.arch,
                                         file: target, sizeBytes: size, source: source,
                                         conffiles: Dictionary(version.editedConfig.map { ($0, Self.edited) }, uniquingKeysWith: { first, _ in first }))
            case .notKept(let reason):
                return KeptVersionRecord(jobRun: run, package: version.name, version: version.version, architecture: version.arch,
                                         failure: reason)
            }
        }
        do {
            try store.recordKept(records)
        } catch {
            StandardOutput.stderr.line("installtop: \(jobName): the versions kept for undo are not recorded: \(error)")
        }
        prune(store)
    }

    /// No job took the helper's transaction over (it refused, or had nothing to do): its folder
    /// goes, with nothing recorded.
    func discard() {
        record([])
    }

    /// Prunes the kept versions by age and size (`UndoPruning`'s defaults), as apt's keeper
    /// does, once this job's are recorded.
    private func prune(_ store: HistoryStore) {
        do {
            try UndoPruning().prune(store)
        } catch {
            StandardOutput.stderr.line("installtop: kept versions not pruned: \(error)")
        }
    }

    private static func makePrivateFolder(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Removes `undo/.dnf-PID-N/` folders whose process no longer runs.
    private static func removeAbandonedFolders(in undoFolder: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: undoFolder)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: undoFolder + "/" + name)
        }
    }
}
