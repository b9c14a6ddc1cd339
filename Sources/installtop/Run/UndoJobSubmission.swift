import InstallEngine
import InstallHistory

/// What queuing an undo's planned job is, whatever its kind (`UndoQueuing`): an uninstall job that undoes run `id` and awaits the operator's yes (its
/// plan dialog), its keeper's run slot registered for the recorder, `afterEnd` once the job
/// ends however it ends (declined too), and `discard` instead when it could not be queued.
struct UndoJobSubmission {
    let queue: JobQueue
    let slots: JobRunSlots

    /// Queues the job and returns its number.
    /// - Throws: `UndoRefusal` when the queue refused it (after `discard`).
    func submit(undoing id: Int, name: String, updates: [Update], driver: any JobDriver, runSlot: JobRunSlot?,
                afterEnd: @escaping @Sendable () -> Void, discard: () -> Void) throws(UndoRefusal) -> Int {
        if let runSlot { slots.register(runSlot, forJobNamed: name) }
        let finished = JobEndWatch(queue: queue, action: afterEnd)
        do {
            let descriptor = try queue.submit(name: name, operation: .uninstall, updates: updates, driver: driver, awaitsConfirmation: true,
                                              undoOf: id)
            finished.watch(job: descriptor.id)
            return descriptor.id
        } catch {
            finished.cancel()
            discard()
            throw UndoRefusal(message: "the undo of run \(id) was not queued: \(error)")
        }
    }
}
