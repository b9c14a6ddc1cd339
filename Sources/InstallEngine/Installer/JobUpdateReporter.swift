/// The reporter a backend gets for one update of a job: each report becomes an input on the
/// job's executor, with the update's index.
struct JobUpdateReporter: UpdateReporter {
    let runner: JobRunner
    let index: Int

    func report(_ report: UpdateReport) {
        runner.submit(.report(report, index: index))
    }

    /// Inputs waiting on the job's executor and callbacks waiting on the installer's queue.
    var backlog: Int { runner.backlog }
}
