/// Receives what a driver says about its job's updates. Implemented by the engine, whose
/// methods only apply the reports to the job and queue what they lead to: they never wait, so
/// a driver may call them on the process poller's thread (the apt driver does, at the end of
/// each of the poller's wake-ups).
public protocol DriverReporter: Sendable {
    /// Called in order, never concurrently.
    func report(_ report: DriverReport)

    /// Several reports made together (what one line of the driver's tool means, or the lines
    /// read while the job was busy), in order, as one call: the engine applies them at once,
    /// and an update's progress that the next change supersedes with the same texts (its
    /// percent, then the job's figure) is announced once, with the later figures; every text is
    /// announced. Called in order with `report(_:)`, never concurrently.
    func report(contentsOf reports: [DriverReport])

    /// The driver is done with the job and will report nothing more about it: the job ends
    /// now, with `outcome`, before anything the driver reports after this call (a job of the
    /// same driver that starts next), instead of whenever the running driver's `outcome` is
    /// awaited. Called after the job's last report, in order with the reports; the running
    /// driver's `outcome` must then be the same, and awaiting it changes nothing. A driver
    /// that never calls it ends the job through `outcome` alone.
    func ended(_ outcome: UpdateRunOutcome)

    /// Reports (or batches of them) taken and not yet handled by the job and the callbacks
    /// behind it: a driver's reader holds its tool's pipes while it is high, as
    /// `UpdateReporter.backlog` does for an update's child (rule 8a). Zero by default.
    var backlog: Int { get }
}

extension DriverReporter {
    public var backlog: Int { 0 }

    /// Reports each in turn.
    public func report(contentsOf reports: [DriverReport]) {
        for each in reports { report(each) }
    }
}
