#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine
import InstallHistory
import TextBasics

/// Keeping for undo in an apt run installtop only observes (`installtop hooks install
/// --keep-for-undo`, rule 37): unattended-upgrades at night, apt by hand. `begin`, from apt's
/// `Pre-Install-Pkgs` hook before dpkg's first run, reserves an observed job run marked
/// `keptForUndo`, keeps the versions the plan replaces in `undo/RUN/` as installtop's own jobs
/// do (`APTVersionKeeper`) and leaves the plan beside them; `end`, from `Post-Invoke` after
/// dpkg's last run, records each package's result as dpkg's database shows it and ends the run.
/// The run is then undone with `installtop apt undo RUN` like one installtop ran. apt's kind
/// hands it to `installtop hooks keep` (`APTKindRegistration.observedRunKeeping`).
///
/// The apt run is named by its process (pid and start time, read from `/proc`): the nearest
/// process above the hook that is no shell, the same for both hooks. An apt run started by
/// installtop itself is left alone: installtop keeps and records its own jobs (and keeps
/// nothing with `--no-history`, on purpose).
///
/// Nothing here may fail apt's run: every failure is a line on stderr (apt shows it, and
/// unattended-upgrades logs it), and the hook lines end in `|| cat >/dev/null` / `|| true`.
struct ObservedUndoKeeping: ObservedRunKeeping {
    let store: HistoryStore
    /// apt's configuration (`APT_CONFIG`, which apt's hooks inherit); `nil` for the system's.
    let aptConfig: String?

    /// The file `begin` leaves in the run's folder for `end`.
    static let pendingName = ".observed-transaction"

    /// Before dpkg, for the apt run above this process (`ObservedAPTRun.current()`).
    func begin(hookInput: String) -> [String] {
        begin(hookInput: hookInput, transaction: ObservedAPTRun.current())
    }

    /// After dpkg, for the apt run above this process (`ObservedAPTRun.current()`).
    func end() -> [String] {
        end(transaction: ObservedAPTRun.current())
    }

    /// Before dpkg: keeps what `hookInput` (apt's version 3 hook input) replaces and records
    /// the run. Returns the lines to say on stderr.
    func begin(hookInput: String, transaction: ObservedAPTRun?) -> [String] {
        guard let transaction else { return ["installtop: nothing kept for undo: the apt run above this hook cannot be found in /proc"] }
        guard !transaction.isInstalltops else { return [] }
        let lines = hookInput.split(separator: "\n").map(String.init)
        let plan = ObservedPlan(lines: lines)
        guard !plan.changes.isEmpty else { return [] }
        // The configuration of this very apt run (its -o and -c options too), as apt hands it
        // to the hook; apt-config only when the input holds none.
        let environment: APTEnvironment
        if let given = APTEnvironment.fromHookInput(lines, aptConfig: aptConfig) {
            environment = given
        } else {
            do {
                environment = try APTEnvironment.resolve(aptConfig: aptConfig)
            } catch {
                return ["installtop: nothing kept for undo: \(error.message)"]
            }
        }
        let name = Self.jobName(plan: plan, transaction: transaction)
        let operation: UpdateOperation = plan.changes.allSatisfy(\.isRemoval) ? .uninstall : .install
        let run: Int64
        do {
            run = try store.reserveJobRun(kind: "apt", name: name, operation: operation, startedAt: Date(), observed: true, keptForUndo: true)
        } catch {
            return ["installtop: nothing kept for undo: the history cannot record a run: \(error)"]
        }
        let folder = store.undoFolder + "/\(run)"
        let kept = APTVersionKeeper(environment: environment).keep(plan.changes, into: folder)
        var said: [String] = []
        do {
            try store.recordKept(kept.map { HistoryVersionKeeper.record($0, run: run) })
        } catch {
            said.append("installtop: run \(run): the kept versions cannot be recorded: \(error)")
        }
        said += kept.compactMap(\.failureNote)
        // What `end` needs: the apt run, the name, dpkg's database, then the plan's lines.
        let pending = ([transaction.key, name, environment.administrativeDirectory] + lines.filter { $0.split(separator: " ").count == 9 })
            .joined(separator: "\n") + "\n"
        do {
            try APTVersionKeeper.makePrivateFolder(folder)
            try pending.write(toFile: folder + "/" + Self.pendingName, atomically: true, encoding: .utf8)
        } catch {
            said.append("installtop: run \(run): its end cannot be recorded (\(ErrorText.reason(error))): it will not be undoable")
        }
        let keptCount = kept.filter { if case .kept = $0.outcome { true } else { false } }.count
        said.append("installtop: run \(run): \(keptCount) of \(kept.count) replaced versions kept for undo (installtop apt undo \(run))")
        return said
    }

    /// After dpkg: records the result of each package of every run `begin` reserved for this
    /// apt run, as dpkg's database shows it, and ends the run. Returns the lines to say.
    func end(transaction: ObservedAPTRun?) -> [String] {
        guard let transaction, !transaction.isInstalltops else { return [] }
        let runs = (try? FileManager.default.contentsOfDirectory(atPath: store.undoFolder)) ?? []
        var said: [String] = []
        for folder in runs {
            guard let run = Int64(folder) else { continue }
            let pendingPath = store.undoFolder + "/\(folder)/" + Self.pendingName
            guard let text = try? String(contentsOfFile: pendingPath, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 3, lines[0] == transaction.key else { continue }
            let name = lines[1]
            let administrativeDirectory = lines[2]
            let plan = ObservedPlan(lines: Array(lines.dropFirst(3)))
            let started = (try? FileManager.default.attributesOfItem(atPath: pendingPath)[.modificationDate]) as? Date
            let states = APTPackageState.query(administrativeDirectory: administrativeDirectory)
            let now = Date()
            // Named as an engine that watched the same run names it: its twin is then known (rule 37).
            let initiator = ObservedInitiator(pid: transaction.pid, startTicks: transaction.startTicks, program: transaction.program,
                                              commandLine: [], uid: getuid(), user: "", terminal: "",
                                              administrativeDirectory: administrativeDirectory)
            let rows = plan.changes.map { change in
                let state = states[change.package] ?? .notInstalled
                return HistoryEntry(operation: change.isRemoval ? .uninstall : .install,
                                    resultCode: state.satisfies(change) ? .succeeded : .failed,
                                    reason: state.satisfies(change) ? nil : "dpkg has it \(state.description) after the run",
                                    startedAt: started, endedAt: now, updateID: change.package, title: change.title,
                                    packageAction: change.action, oldVersion: change.oldVersion, newVersion: change.newVersion,
                                    jobName: name, observedBy: initiator, jobRun: run)
            }
            let result: OperationResultCode = rows.allSatisfy { $0.resultCode == .succeeded } ? .succeeded : .failed
            do {
                try store.recordSettledRows(rows)
                try store.finishJobRun(run, name: name, resultCode: result, endedAt: now)
                try? FileManager.default.removeItem(atPath: pendingPath)
            } catch {
                said.append("installtop: run \(run): its end cannot be recorded: \(error)")
            }
        }
        do {
            try UndoPruning().prune(store)
        } catch {
            said.append("installtop: kept versions not pruned: \(error)")
        }
        return said
    }

    /// `apt-get upgrade — observed, kept for undo`: apt's command line when it gave one, else
    /// the program (unattended-upgrade runs apt through python-apt, without one).
    static func jobName(plan: ObservedPlan, transaction: ObservedAPTRun) -> String {
        let program = transaction.program == "unattended-upgr" ? "unattended-upgrade" : transaction.program
        var words = plan.commandLine.split(separator: " ").map(String.init)
        if let first = words.first, let last = first.split(separator: "/").last { words[0] = String(last) }
        let command = words.isEmpty ? program : words.joined(separator: " ")
        return command + " (observed, kept for undo)"
    }
}
