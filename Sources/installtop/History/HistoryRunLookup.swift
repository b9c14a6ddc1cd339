import Glibc
import InstallDrivers
import InstallHistory

/// A job run of the history as `installtop apt undo RUN`, `installtop apt repair RUN` and
/// `installtop dnf undo RUN` find it, each refusal saying what to do, with the command that
/// asked: no history, no such run, or (for a user who is not root) where root's runs are.
enum HistoryRunLookup {
    /// Run `id` of the history `history` names (the default one when it names none).
    /// - Parameters:
    ///   - tool: the command's package tool (`apt`, `dnf`), for the commands the refusals name;
    ///     `nil` when no command asked (`u` in the history view): the refusals name `history
    ///     --jobs`.
    ///   - verb: the command's word (`undo`, `repair`), for the refusals.
    ///   - recovering: whether runs whose engine died are first settled from dpkg (written into
    ///     the history); an engine that records there settles its own, so a caller handing the
    ///     work to it leaves them alone.
    /// - Throws: `UndoRefusal`, nothing changed: `--no-history`, no history file, no such run,
    ///   a history that cannot be read.
    static func find(_ id: Int, history: HistoryOptions, tool: String?, verb: String, recovering: Bool = true) throws(UndoRefusal) -> JobRun {
        guard !history.noHistory else {
            throw UndoRefusal(message: "\(verb == "undo" ? "an undo" : "a \(verb)") needs the history (--no-history records no run to \(verb))")
        }
        // A user who is not root keeps no apt runs of their own (apt needs root): theirs are in
        // root's history, which they cannot read; the refusal says how to reach it.
        let rootsHistory = history.historyDb == nil && geteuid() != 0 ? UndoRefusal.rootsHistory(holding: id, tool: tool, verb: verb) : ""
        let found: JobRun?
        do {
            let store = try HistoryStore(path: history.historyDb ?? HistoryStore.defaultPath(), createIfMissing: false)
            // A run whose engine died is ended from dpkg first: then it can be undone or repaired.
            if recovering { try store.recoverFromDeadEngines() }
            // A run's undoability follows what its tool has half-way now, as the kind whose
            // database the run recorded says (apt's: dpkg's): one naming a package dpkg left
            // half-way is refused with the repair that finishes it, not with apt's "dpkg was
            // interrupted" once its plan is asked for.
            found = try store.jobRun(Int64(id), halfWay: EngineHost.halfWayPackages(administrativeDirectory:))
        } catch .missingDatabase(let path) {
            throw UndoRefusal(message: "there is no history at \(path), so no run \(id) to \(verb)" + rootsHistory)
        } catch {
            throw UndoRefusal(message: "the history cannot be read: \(error)")
        }
        guard let run = found else {
            throw UndoRefusal(message: rootsHistory.isEmpty
                ? "the history holds no run \(id) (a --no-history run records none): installtop history --jobs lists them" + servicesHistory(id, history, tool, verb)
                : "run \(id) is not in \(HistoryStore.defaultPath()) (installtop history --jobs lists its runs)" + rootsHistory)
        }
        return run
    }

    /// For root without `--history-db`, when the service's history (`installtop serve`'s, which
    /// `apt` jobs record into while it runs, and submitted jobs) is another file and exists:
    /// where the run may be.
    private static func servicesHistory(_ id: Int, _ history: HistoryOptions, _ tool: String?, _ verb: String) -> String {
        let service = SystemdUnit.serviceHistoryPath()
        guard history.historyDb == nil, service != HistoryStore.defaultPath(), access(service, F_OK) == 0 else { return "" }
        guard let tool else { return "; the service's history may hold it: installtop history --jobs --history-db \(service)" }
        return "; the service's history may hold it: installtop \(tool) \(verb) \(id) --history-db \(service)"
    }
}
