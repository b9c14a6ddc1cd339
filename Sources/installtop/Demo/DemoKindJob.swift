/// A kind's job in `installtop demo` (`KindRegistration.demoJob`): planned before the demo's
/// run starts and queued after the manifest's made-up jobs, acting only on what it built for
/// the demo (never the host's packages).
protocol DemoKindJob {
    /// The job for the queue, planned and ready to run without asking (it is a demo).
    var job: RunnableJob { get }

    /// Deletes what the job was built in; called once the demo's run has ended, or was stopped
    /// before it started.
    func remove()
}
