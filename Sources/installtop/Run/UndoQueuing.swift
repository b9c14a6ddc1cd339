import InstallEngine
import InstallHistory

/// What `u` in a monitor's history view (and `serve`'s `undo`) does with a run: its undo
/// planned and queued on the engine's queue awaiting the operator's yes, by the run's kind:
/// apt's in the engine's apt root (`APTUndoQueuing`; none when the engine has no apt root),
/// dnf's in the root the run recorded (`DNFUndoQueuing`).
struct UndoQueuing: Sendable {
    let queue: JobQueue
    let history: HistoryOptions
    let apt: APTUndoQueuing?
    let dnf: DNFUndoQueuing

    init(queue: JobQueue, history: HistoryOptions, slots: JobRunSlots, aptRoot: APTUndoRoot?, warn: @escaping @Sendable (String) -> Void) {
        self.queue = queue
        self.history = history
        apt = aptRoot.map { APTUndoQueuing(queue: queue, history: history, aptConfig: $0.aptConfig, chroot: $0.chroot, slots: slots, warn: warn) }
        dnf = DNFUndoQueuing(queue: queue, history: history, slots: slots, warn: warn)
    }

    /// Plans and queues the undo of run `id`; returns the job's number.
    /// - Throws: `APTUndoRefusal` (nothing queued, nothing changed): the history's or the
    ///   tool's refusal, or an undo of the run already waiting or running here.
    func queueUndo(of id: Int) throws(APTUndoRefusal) -> Int {
        if let pending = queue.snapshot().jobs.first(where: { $0.descriptor.undoOf == id && $0.phase != .completed }) {
            throw APTUndoRefusal(message: "run \(id) is being undone already: job \(pending.id)")
        }
        let run = try APTHistoryRun.find(id, history: history, verb: "undo")
        if run.kind == "dnf" { return try dnf.queueUndo(of: run) }
        guard let apt else {
            throw APTUndoRefusal(message: "run \(id) is an apt run, and this engine acts on no apt root: installtop apt undo \(id) undoes it")
        }
        return try apt.queueUndo(of: id)
    }
}
