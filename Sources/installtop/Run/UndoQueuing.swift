import InstallEngine
import InstallHistory

/// What `u` in a monitor's history view (and `serve`'s `undo`) does with a run: its undo
/// planned by the kind that ran it (`KindRegistration.planUndo`: in the engine's root, or in
/// the root the run recorded) and queued on the engine's queue awaiting the operator's yes, its
/// plan dialog being the question; declined, it runs nothing. Once the job ends the kind's
/// clean-up runs and what it says is warned.
struct UndoQueuing: Sendable {
    let queue: JobQueue
    let history: HistoryOptions
    let slots: JobRunSlots
    /// The root the engine acts on, as the command that owns it named it; `nil` when it has
    /// none (a kind that undoes in the engine's root refuses then).
    let engineRoot: EngineRoot?
    /// Where what the operator must know after an undo is said (stderr, or the engine's log).
    let warn: @Sendable (String) -> Void

    /// Plans and queues the undo of run `id`; returns the job's number.
    /// - Throws: `UndoRefusal` (nothing queued, nothing changed): the history's or the
    ///   kind's refusal, a run of a kind installtop does not undo, or an undo of the run
    ///   already waiting or running here.
    func queueUndo(of id: Int) throws(UndoRefusal) -> Int {
        if let pending = queue.snapshot().jobs.first(where: { $0.descriptor.undoOf == id && $0.phase != .completed }) {
            throw UndoRefusal(message: "run \(id) is being undone already: job \(pending.id)")
        }
        // No command is named in the refusals: they only come for a run the history view no
        // longer finds, whose kind is not known.
        let run = try HistoryRunLookup.find(id, history: history, tool: nil, verb: "undo")
        guard let kind = EngineHost.registration(named: run.kind) else {
            throw UndoRefusal(message: "run \(id) is a \(run.kind) run, which installtop does not undo")
        }
        let undo = try kind.planUndo(of: run, engineRoot: engineRoot, history: history)
        return try UndoJobSubmission(queue: queue, slots: slots).submit(
            undoing: id, name: undo.name, updates: undo.updates, driver: undo.driver, runSlot: undo.runSlot,
            afterEnd: { [warn] in
                for warning in undo.finish() { warn("\(run.kind) undo \(id): \(warning)") }
            },
            discard: undo.discard)
    }
}
