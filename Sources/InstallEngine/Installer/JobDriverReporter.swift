/// The reporter a driver gets for its job: its reports, and its end, become inputs on the
/// job's executor.
struct JobDriverReporter: DriverReporter {
    let runner: JobRunner

    func report(_ report: DriverReport) {
        runner.submit(.driverReports([report]))
    }

    func report(contentsOf reports: [DriverReport]) {
        runner.submit(.driverReports(reports))
    }

    func ended(_ outcome: UpdateRunOutcome) {
        runner.submit(.driverEnded(outcome))
    }

    /// Inputs waiting on the job's executor and callbacks waiting on the installer's queue.
    var backlog: Int { runner.backlog }
}
