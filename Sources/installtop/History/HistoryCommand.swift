import ArgumentParser
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallHistory
import EngineDaemon
import Glibc

/// `installtop history`: the install history, newest first (rule 19).
///
/// Before listing, rows left running by an installtop that died are settled as interrupted
/// (rule 20). A missing or unusable database is reported on stderr with exit status 1.
/// Without `--history-db`: the history of the engine this user's `installtop apt` jobs run in,
/// when one answers; else the user's own, or as root without one of its own, the service's (see
/// `defaultPath`).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the install history, newest first."
    )

    @Option(help: "How many entries to show.")
    var limit = 20

    @Option(help: "How many of the newest entries to skip (zero-based paging).")
    var offset = 0

    @Option(name: .customLong("update"), help: ArgumentHelp("Only entries of this update id.", valueName: "id"))
    var updateID: String?

    @Option(name: .customLong("job"), help: ArgumentHelp("Only entries of this job name.", valueName: "name"))
    var jobName: String?

    @Flag(help: "Print JSON Lines, one object per entry.")
    var json = false

    @Flag(help: "One row per job run instead (id, date, kind, result, the packages it changed, whether it can be undone and if not why); --limit counts runs.")
    var jobs = false

    @Option(
        name: .customLong("history-db"),
        help: ArgumentHelp(
            "The history database (default: the running engine's, where installtop apt records its jobs; without one, $XDG_STATE_HOME/installtop/history.sqlite3, or as root, when that does not exist, the service's, /var/lib/installtop/history.sqlite3).", valueName: "path"))
    var historyDB: String?

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1.") }
        guard offset >= 0 else { throw ValidationError("--offset must not be negative.") }
        if jobs, offset > 0 || updateID != nil || jobName != nil {
            throw ValidationError("--jobs lists the newest runs: --offset, --update and --job are for entries.")
        }
    }

    func run() throws {
        let path: String
        if let historyDB {
            path = historyDB
        } else if let engine = Self.enginesHistory() {
            // `installtop apt` runs its jobs in that engine, which records them there.
            path = engine
            if engine != EngineIdentity.absolute(HistoryStore.defaultPath()) {
                Self.printError("showing the machine's engine's history, \(path) (installtop apt records its jobs there; --history-db for another)")
            }
        } else {
            let chosen = Self.defaultPath()
            path = chosen.path
            if let own = chosen.insteadOf {
                Self.printError("showing the service's history, \(path) (\(own) does not exist)")
            }
        }
        let entries: [HistoryEntry]
        let total: Int
        var runs: [JobRun]?
        do {
            let store = try HistoryStore(path: path, createIfMissing: false)
            try store.recoverFromDeadEngines()
            if jobs { runs = try store.jobRuns(limit: limit, halfWay: EngineHost.halfWayPackages(administrativeDirectory:)) }
            entries = jobs ? [] : try store.entries(limit: limit, offset: offset, updateID: updateID, jobName: jobName)
            total = json || jobs ? 0 : try store.count(updateID: updateID, jobName: jobName)
        } catch .missingDatabase(let missing) {
            Self.printError("no install history yet (\(missing) does not exist)")
            throw ExitCode.failure
        } catch {
            Self.printError(error.description)
            throw ExitCode.failure
        }
        if let runs { return try printRuns(runs) }
        if json {
            for entry in entries { print(try HistoryEntryJSON.line(for: entry)) }
        } else if entries.isEmpty {
            print(offset > 0 || updateID != nil || jobName != nil ? "No matching history entries." : "No install history yet.")
        } else {
            print(HistoryTable.render(entries, width: OutputWidth.current()), terminator: "")
            if offset + entries.count < total {
                print("(\(offset + 1)-\(offset + entries.count) of \(total); --offset \(offset + entries.count) for older entries)")
            }
        }
    }

    /// `--jobs`: the runs as JSON Lines or a table.
    private func printRuns(_ runs: [JobRun]) throws {
        if json {
            for run in runs { print(try JobRunJSON.line(for: run)) }
        } else if runs.isEmpty {
            print("No job runs recorded yet.")
        } else {
            print(JobRunTable.render(runs, width: OutputWidth.current()), terminator: "")
        }
    }

    /// The history of the engine this user's `installtop apt` jobs run in, when one answers
    /// within a second and records one (`MachineEngine`).
    private static func enginesHistory() -> String? {
        guard case .found(let client, let identity) = MachineEngine.find(timeout: .seconds(1)) else { return nil }
        client.close()
        return identity.history
    }

    /// The user's own history; as root, when that does not exist but the service's does (the
    /// systemd unit's, see `SystemdUnit.serviceHistoryPath`), the service's, with the own path
    /// it stands in for. root's own history is still the one shown once it exists.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment,
                            isRoot: Bool = geteuid() == 0) -> (path: String, insteadOf: String?) {
        let own = HistoryStore.defaultPath(environment: environment)
        let service = SystemdUnit.serviceHistoryPath(environment: environment)
        guard isRoot, !FileManager.default.fileExists(atPath: own), FileManager.default.fileExists(atPath: service) else {
            return (own, nil)
        }
        return (service, own)
    }

    private static func printError(_ message: String) {
        StandardOutput.stderr.line("installtop: \(message)")
    }
}
