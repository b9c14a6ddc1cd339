import InstallEngine

/// A job ready to hand to the queue: a manifest's list of commands, or a package job whose plan
/// apt has already given (its driver runs the transaction).
struct RunnableJob {
    var name: String
    var operation: UpdateOperation
    var updates: [Update]
    var stopOnFailure: Bool
    /// Runs the whole job (apt); `nil` for one child per update.
    var driver: (any JobDriver)?
    /// Held in the queue until the operator says yes in the monitor (an apt plan without `--yes`).
    var needsConfirmation: Bool

    /// A manifest job of commands.
    init(_ job: ManifestJob) {
        self.init(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure, driver: nil)
    }

    init(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool = false, driver: (any JobDriver)? = nil,
         needsConfirmation: Bool = false) {
        self.name = name
        self.operation = operation
        self.updates = updates
        self.stopOnFailure = stopOnFailure
        self.driver = driver
        self.needsConfirmation = needsConfirmation
    }
}
