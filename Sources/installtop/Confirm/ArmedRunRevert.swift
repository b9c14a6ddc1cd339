import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallHistory

/// The revert of a commit-confirmed run whose revert this process claimed
/// (`HistoryStore.decide` returned `.revert`): the run's undo from its kept versions, by the
/// window's tool: apt's (`APTUndoPreparation`, as `installtop apt undo` plans it) in the apt
/// root the job acted on, never while another transaction holds dpkg's lock; dnf's
/// (`performDNF`, as `installtop dnf undo`) in the root the run recorded, never while rpm's or
/// dnf's lock there is held. It waits for a held lock, and says so. Then the window is recorded
/// `reverted` (with the undo's run) or `expired` (with why the undo could not put the run back).
/// Either way the run's systemd timer (`RevertTimer`) is stopped; after a revert that put the
/// run back, the services its job restarted are restarted again (`ServiceInvocations`), so
/// that they run the old versions.
struct ArmedRunRevert {
    let window: ConfirmWindow
    /// Why it is reverted, recorded with it.
    let reason: String
    /// The history the run is in.
    let historyDatabase: String
    /// How the undo's job is shown: `--plain` or `--json`.
    let outputFlag: String

    /// The systemd tools for the run's timer and the services' restart (`SystemdTools`).
    var systemd = SystemdTools.current()

    /// How long the revert waits between looks at a held lock.
    static let lockPoll = 0.5

    /// Reverts; returns `.reverted` when the run was put back, `.failed` when it could not be
    /// (the window is then `expired`, and why is said and recorded).
    func perform(store: HistoryStore) -> ExitStatus {
        let run = window.run
        StandardOutput.stderr.line("installtop: run \(run): reverting (\(reason))")
        if window.tool == "dnf" { return performDNF(store: store) }
        let environment: APTEnvironment
        do {
            environment = try APTEnvironment.resolve(aptConfig: window.aptConfig, chroot: window.chroot)
        } catch {
            return expire("the apt root cannot be read: \(error.message)", store: store)
        }
        var attempt = 0
        while true {
            attempt += 1
            waitForDpkg(environment.administrativeDirectory)
            let preparation: APTUndoPreparation
            do {
                let found = try HistoryRunLookup.find(Int(run), history: historyOptions, tool: "apt", verb: "undo")
                preparation = try APTUndoPreparation.prepare(undoing: found, aptConfig: window.aptConfig, chroot: window.chroot)
            } catch {
                return expire("its undo was refused: \(error.message)", store: store)
            }
            let status = APTSession(request: preparation.request, options: undoOptions, expected: preparation.expectedChanges,
                                    route: .here, leaves: preparation.leaves).run()
            for warning in preparation.finish() { StandardOutput.stderr.line("installtop: run \(run): revert: \(warning)") }
            if let reverted = recordReverted(status, store: store) { return reverted }
            // Another transaction took dpkg's lock between the look and apt: wait for it again.
            if attempt < 3, case .held = DpkgLock.state(administrativeDirectory: environment.administrativeDirectory) { continue }
            return expire("its undo did not succeed (exit status \(status.rawValue))", store: store)
        }
    }

    /// Records the window `reverted` when the undo ended with `status` and the history has the
    /// run undone; returns `.reverted` then, `nil` when the undo did not put the run back.
    func recordReverted(_ status: ExitStatus, store: HistoryStore) -> ExitStatus? {
        let run = window.run
        guard let undoneBy = (try? store.jobRun(run))?.undoneBy, status == .succeeded || status == .rebootRequired else { return nil }
        do {
            try store.finishRevert(of: run, reverted: true, reason: reason, revertRun: undoneBy)
        } catch {
            StandardOutput.stderr.line("installtop: run \(run): reverted, but the history could not record it: \(error)")
        }
        StandardOutput.stderr.line("installtop: run \(run) reverted by run \(undoneBy): \(reason)")
        timer.stop()
        StandardOutput.stderr.line("installtop: run \(run): " + ServiceInvocations(tools: systemd).restartAgain(window.restartedServices))
        return .reverted
    }

    /// Waits while another transaction holds dpkg's front-end lock, saying so once.
    private func waitForDpkg(_ administrativeDirectory: String) {
        var said = false
        while case .held(let pid) = DpkgLock.state(administrativeDirectory: administrativeDirectory) {
            if !said {
                StandardOutput.stderr.line("installtop: run \(window.run): dpkg is in use by another transaction (pid \(pid)): "
                    + "the revert waits for it to end")
                said = true
            }
            usleep(UInt32(Self.lockPoll * 1_000_000))
        }
        if said { StandardOutput.stderr.line("installtop: run \(window.run): dpkg is free: reverting") }
    }

    /// Records the window `expired` with why the undo could not put the run back.
    func expire(_ why: String, store: HistoryStore) -> ExitStatus {
        // Settled: the timer would only find it so.
        defer { timer.stop() }
        let recorded = "\(reason); not reverted: \(why)"
        do {
            try store.finishRevert(of: window.run, reverted: false, reason: recorded, revertRun: nil)
        } catch {
            StandardOutput.stderr.line("installtop: run \(window.run): the history could not record the failed revert: \(error)")
        }
        StandardOutput.stderr.line("installtop: run \(window.run) could not be reverted: \(why); it stays as the job left it")
        return .failed
    }

    /// The run's systemd timer, stopped when the revert ends: it would find the run settled.
    private var timer: RevertTimer { RevertTimer(run: window.run, historyDatabase: historyDatabase, tool: window.tool, tools: systemd) }

    /// The run's history, as the undo's lookup of the run takes it.
    var historyOptions: HistoryOptions {
        // Parsing cannot fail: the flags are fixed and the value a path.
        (try? HistoryOptions.parse(["--history-db", historyDatabase])) ?? HistoryOptions()
    }

    /// The undo's options: without a question, the job's apt root, the run's history.
    private var undoOptions: APTOptions {
        var arguments = ["--yes", outputFlag, "--history-db", historyDatabase]
        if let aptConfig = window.aptConfig { arguments += ["--apt-config", aptConfig] }
        if let chroot = window.chroot { arguments += ["--chroot", chroot] }
        return (try? APTOptions.parse(arguments)) ?? APTOptions()
    }
}
