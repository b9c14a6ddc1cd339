/// A driver whose jobs share one executor: the jobs of one driver session (rule 27), whose
/// process reports on many jobs in one order. Each job's inputs are still performed one at a
/// time, but in the order the driver made them across its jobs, so one host's task that ended
/// is never seen running after the next host's task started (a board showing three tasks
/// running with `--forks 2`).
protocol ExecutorSharingDriver: JobDriver {
    /// The executor every job of this driver runs on.
    var sharedExecutor: SerialWorkQueue { get }
}
