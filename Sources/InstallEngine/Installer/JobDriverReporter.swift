/// The reporter a driver gets for its job: forwards every report to the job.
struct JobDriverReporter: DriverReporter {
    let job: InstallationJob

    func report(_ report: DriverReport) {
        job.receive(report)
    }
}
