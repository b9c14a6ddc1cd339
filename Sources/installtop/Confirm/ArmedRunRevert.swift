import ArgumentParser
import InstallHistory

/// The revert of a commit-confirmed run whose revert this process claimed
/// (`HistoryStore.decide` returned `.revert`): the run's undo from its kept versions, by the kind
/// of the window's tool (`KindRegistration.revertArmedRun`: as its undo command plans it, in the
/// root the run acted on, never while another transaction holds the tool's lock, for which it
/// waits and says so). Then the window is recorded `reverted` (with the undo's run) or `expired`
/// (with why the undo could not put the run back); a tool no registered kind has is recorded
/// expired. Either way the run's systemd timer (`RevertTimer`) is stopped; after a revert that
/// put the run back, the services its job restarted are restarted again
/// (`ServiceInvocations`), so that they run the old versions.
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

    /// How long a kind's revert waits between looks at a held lock.
    static let lockPoll = 0.5

    /// Reverts; returns `.reverted` when the run was put back, `.failed` when it could not be
    /// (the window is then `expired`, and why is said and recorded).
    func perform(store: HistoryStore) -> ExitStatus {
        StandardOutput.stderr.line("installtop: run \(window.run): reverting (\(reason))")
        guard let kind = EngineHost.registration(named: window.tool) else {
            return expire("installtop has no \(window.tool) kind to undo it", store: store)
        }
        return kind.revertArmedRun(self, store: store)
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

    /// The arguments every kind's undo command takes here: without a question, shown as the
    /// revert's output asks, recorded in the run's history.
    var undoArguments: [String] {
        ["--yes", outputFlag, "--history-db", historyDatabase]
    }
}
