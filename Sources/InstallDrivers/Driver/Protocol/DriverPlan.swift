import InstallEngine

/// `{"type":"plan","job":"web1","name":"web1 · site.yml","operation":"install","updates":[…]}`:
/// a job and every update it may run, in order. A multi-job driver (Ansible: one job per host)
/// declares several; each must be declared before its first update starts.
public struct DriverPlan: Sendable, Hashable {
    /// The driver's key for the job, unique among the jobs it declares.
    public var job: String
    /// Shown as the job's name.
    public var name: String
    public var operation: UpdateOperation
    /// Non-empty; ids unique within the job.
    public var updates: [DriverPlannedUpdate]

    public init(job: String, name: String, operation: UpdateOperation = .install, updates: [DriverPlannedUpdate]) {
        self.job = job
        self.name = name
        self.operation = operation
        self.updates = updates
    }
}
