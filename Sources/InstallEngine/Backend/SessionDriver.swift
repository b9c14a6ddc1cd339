/// One installer process that runs several jobs (rule 27: Ansible, one job per host; any
/// program speaking the driver protocol). It declares each job's plan before the job's first
/// update starts; the queue shows the jobs as they are declared, starts each when the driver
/// starts its first update, and counts the whole session once against its concurrency.
public protocol SessionDriver: Sendable {
    /// Starts the process and returns at once. A process that cannot be started is not an
    /// error here: the handle's `outcome` is `.failedToStart(reason)`.
    ///
    /// The driver calls `reporter` in order, never concurrently, and never after `outcome` has
    /// returned.
    func start(reporter: any SessionReporter) -> any RunningSession
}
