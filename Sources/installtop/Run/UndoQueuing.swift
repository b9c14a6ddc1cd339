import InstallEngine
import InstallHistory

/// What `u` in a monitor's history view (and `serve`'s `undo`) does with a run: its undo
/// planned and queued on the engine's queue awaiting the operator's yes, by the kind that ran
/// it (`KindRegistration.queueUndo`): apt's in the engine's apt root, dnf's in the root the
/// run recorded.
struct UndoQueuing: Sendable {
    let queue: JobQueue
    let history: HistoryOptions
    let slots: JobRunSlots
    /// The apt root the engine acts on; `nil` when it has none (its apt runs are not undone here).
    let aptRoot: APTUndoRoot?
    /// Where what the operator must know after an undo is said (stderr, or the engine's log).
    let warn: @Sendable (String) -> Void

    /// Plans and queues the undo of run `id`; returns the job's number.
    /// - Throws: `UndoRefusal` (nothing queued, nothing changed): the history's or the
    ///   tool's refusal, a run of a kind installtop does not undo, or an undo of the run
    ///   already waiting or running here.
    func queueUndo(of id: Int) throws(UndoRefusal) -> Int {
        if let pending = queue.snapshot().jobs.first(where: { $0.descriptor.undoOf == id && $0.phase != .completed }) {
            throw UndoRefusal(message: "run \(id) is being undone already: job \(pending.id)")
        }
        // The refusals' commands are apt's (`sudo installtop apt undo N`, …): they only come for
        // a run the history view no longer finds, when the run's kind is not known.
        let run = try HistoryRunLookup.find(id, history: history, tool: "apt", verb: "undo")
        guard let kind = EngineHost.registration(named: run.kind) else {
            throw UndoRefusal(message: "run \(id) is a \(run.kind) run, which installtop does not undo")
        }
        return try kind.queueUndo(of: run, with: self)
    }
}
