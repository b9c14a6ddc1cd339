import ArgumentParser
import Glibc
import InstallDrivers
import InstallHistory

/// A dnf run's revert (`DNFKindRegistration.revertArmedRun`): its undo (`DNFUndoRequest`,
/// planned as `installtop dnf undo RUN` plans it) in the root the run recorded, with `--yes`,
/// recorded in the run's history. While another transaction holds rpm's or dnf's lock of that
/// root (`DNFRootLock`) it waits, saying so once; a lock taken between that look and the
/// helper's own makes it wait and try again (three tries in all).
struct DNFArmedRunRevert {
    let revert: ArmedRunRevert

    func perform(store: HistoryStore) -> ExitStatus {
        let run = revert.window.run
        let root = revert.window.installRoot.flatMap { $0 == "/" ? nil : $0 }
        var attempt = 0
        while true {
            attempt += 1
            waitForRPM(root)
            let undone: JobRun
            let job: DNFJob
            do {
                undone = try HistoryRunLookup.find(Int(run), history: revert.historyOptions, tool: "dnf", verb: "undo")
                job = try DNFUndoRequest.job(undoing: undone, named: nil)
            } catch {
                return revert.expire("its undo was refused: \(error.message)", store: store)
            }
            let status = DNFSession(request: job.request, options: undoOptions(root: job.installRoot), undoOf: Int(run)).run()
            for warning in DNFUndoRequest.editWarnings(undoing: undone, root: job.installRoot) {
                StandardOutput.stderr.line("installtop: run \(run): revert: \(warning)")
            }
            if let reverted = revert.recordReverted(status, store: store) { return reverted }
            if attempt < 3, DNFRootLock.isHeld(root: root) { continue }
            return revert.expire("its undo did not succeed (exit status \(status.rawValue))", store: store)
        }
    }

    /// Waits while a dnf or rpm transaction may run in `root` (`nil`: this system), saying so once.
    private func waitForRPM(_ root: String?) {
        var said = false
        while DNFRootLock.isHeld(root: root) {
            if !said {
                StandardOutput.stderr.line("installtop: run \(revert.window.run): rpm's database of \(root ?? "this system") is in use by another "
                    + "transaction (dnf's or rpm's lock is held): the revert waits for it to end")
                said = true
            }
            usleep(UInt32(ArmedRunRevert.lockPoll * 1_000_000))
        }
        if said { StandardOutput.stderr.line("installtop: run \(revert.window.run): rpm's database is free: reverting") }
    }

    /// The undo's options: without a question, in `root`, recorded in the run's history.
    private func undoOptions(root: String?) -> DNFOptions {
        var arguments = revert.undoArguments
        if let root { arguments += ["--installroot", root] }
        return (try? DNFOptions.parse(arguments)) ?? DNFOptions()
    }
}
