import ArgumentParser
import Glibc
import InstallDrivers
import InstallHistory

/// An apt run's revert (`APTKindRegistration.revertArmedRun`): its undo (`APTUndoPreparation`,
/// as `installtop apt undo RUN` plans it) in the apt root the job acted on, with `--yes`,
/// recorded in the run's history. While another transaction holds dpkg's lock it waits, saying
/// so once; a lock taken between that look and apt's own makes it wait and try again (three
/// tries in all).
struct APTArmedRunRevert {
    let revert: ArmedRunRevert

    func perform(store: HistoryStore) -> ExitStatus {
        let window = revert.window
        let run = window.run
        let environment: APTEnvironment
        do {
            environment = try APTEnvironment.resolve(aptConfig: window.aptConfig, chroot: window.chroot)
        } catch {
            return revert.expire("the apt root cannot be read: \(error.message)", store: store)
        }
        var attempt = 0
        while true {
            attempt += 1
            waitForDpkg(environment.administrativeDirectory)
            let preparation: APTUndoPreparation
            do {
                let found = try HistoryRunLookup.find(Int(run), history: revert.historyOptions, tool: "apt", verb: "undo")
                preparation = try APTUndoPreparation.prepare(undoing: found, aptConfig: window.aptConfig, chroot: window.chroot)
            } catch {
                return revert.expire("its undo was refused: \(error.message)", store: store)
            }
            let status = APTSession(request: preparation.request, options: undoOptions, expected: preparation.expectedChanges,
                                    route: .here, leaves: preparation.leaves).run()
            for warning in preparation.finish() { StandardOutput.stderr.line("installtop: run \(run): revert: \(warning)") }
            if let reverted = revert.recordReverted(status, store: store) { return reverted }
            // Another transaction took dpkg's lock between the look and apt: wait for it again.
            if attempt < 3, case .held = DpkgLock.state(administrativeDirectory: environment.administrativeDirectory) { continue }
            return revert.expire("its undo did not succeed (exit status \(status.rawValue))", store: store)
        }
    }

    /// Waits while another transaction holds dpkg's front-end lock, saying so once.
    private func waitForDpkg(_ administrativeDirectory: String) {
        var said = false
        while case .held(let pid) = DpkgLock.state(administrativeDirectory: administrativeDirectory) {
            if !said {
                StandardOutput.stderr.line("installtop: run \(revert.window.run): dpkg is in use by another transaction (pid \(pid)): "
                    + "the revert waits for it to end")
                said = true
            }
            usleep(UInt32(ArmedRunRevert.lockPoll * 1_000_000))
        }
        if said { StandardOutput.stderr.line("installtop: run \(revert.window.run): dpkg is free: reverting") }
    }

    /// The undo's options: without a question, the job's apt root, the run's history.
    private var undoOptions: APTOptions {
        var arguments = revert.undoArguments
        if let aptConfig = revert.window.aptConfig { arguments += ["--apt-config", aptConfig] }
        if let chroot = revert.window.chroot { arguments += ["--chroot", chroot] }
        return (try? APTOptions.parse(arguments)) ?? APTOptions()
    }
}
