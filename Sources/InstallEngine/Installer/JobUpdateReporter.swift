/// The reporter a backend gets for one update of a job: forwards to the job with the index.
struct JobUpdateReporter: UpdateReporter {
    let job: InstallationJob
    let index: Int

    func report(_ report: UpdateReport) {
        job.receive(report, fromUpdateAt: index)
    }
}
