/// The reporter a driver gets for its job: forwards every report, and the driver's end, to the job.
struct JobDriverReporter: DriverReporter {
    let job: InstallationJob

    func report(_ report: DriverReport) {
        job.receive([report])
    }

    func report(contentsOf reports: [DriverReport]) {
        job.receive(reports)
    }

    func ended(_ outcome: UpdateRunOutcome) {
        job.driverEnded(outcome)
    }
}
