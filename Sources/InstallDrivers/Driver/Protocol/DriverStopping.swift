/// `{"type":"stopping","job":"web1","waitingFor":["t3"]}`: the driver took a stop request and
/// stops once these updates have finished; without `job`, for every job of the driver.
public struct DriverStopping: Sendable, Hashable {
    public var job: String?
    /// The running updates it waits for (ids of the job's plan; of any job without `job`).
    public var waitingFor: [String]

    public init(job: String?, waitingFor: [String]) {
        self.job = job
        self.waitingFor = waitingFor
    }
}
