/// Keeps the installed versions a dnf job's transaction takes away, for undo
/// (Documentation/DNF-JOBS.md, "Undo"): the helper keeps each one's rpm into `folder` before
/// rpm's transaction begins, and once the transaction has ended, `record` files what was kept
/// under the job's history run. Keeping never stops a transaction: a version that cannot be
/// kept is recorded with the reason, and that run then cannot be undone.
public protocol DNFVersionKeeping: Sendable {
    /// The folder the helper keeps into, private to this job, made by the keeper; `nil` when
    /// there is none (the history cannot hold one), and then nothing is kept.
    var folder: String? { get }

    /// The job starts with `plan`: its run is to record the plan and the root it acts on, so
    /// that the run's undo acts there. Must not wait.
    func planned(_ plan: DNFPlan)

    /// Records `kept` (read back from each file already) under the job's run, moving the files
    /// where the run keeps them; with nothing kept, the folder goes. Must return: a failure is
    /// the keeper's to say, never the job's.
    func record(_ kept: [DNFKeptVersion])
}
