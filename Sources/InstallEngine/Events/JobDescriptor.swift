/// What a job is, as the queue announces it in `job.queued`: its number, name, operation and
/// the snapshot of its updates (rule 4: indices are positions in this list).
public struct JobDescriptor: Sendable, Hashable, Identifiable {
    /// The queue's job number, from 1 up, never reused within one engine.
    public var id: Int
    public var name: String
    public var operation: UpdateOperation
    public var updates: [Update]
    /// Rule 18: after a failed update the rest are aborted with `callCancelled`.
    public var stopOnFailure: Bool
    /// Held in the queue until someone confirms it (`JobCommand.confirm`): an apt plan shown
    /// before it runs. Aborting it instead completes it at once, every update aborted (rule 13).
    public var awaitsConfirmation: Bool
    /// Run by a driver (apt): an abort stops at the driver's next safe point, letting the running
    /// update finish (rule 24), instead of signalling it (rule 11).
    public var runByDriver: Bool
    /// Declared by a driver session as it ran (rule 27): a host of a fleet run, whose updates
    /// are its tasks.
    public var declaredByDriver: Bool
    /// An observed job (rule 28): a transaction this process runs, which installtop watches but
    /// did not start and cannot abort (rule 29); `nil` for installtop's own jobs.
    public var observedBy: ObservedInitiator?
    /// The history's job run this job undoes (`installtop apt undo RUN`, Documentation/UNDO.md);
    /// `nil` for every other job.
    public var undoOf: Int?
    /// What an abort does to it, in the words of the tool its driver runs (`JobDriver.stopNote`);
    /// `nil` for a job of commands, and for a driver that says nothing of it.
    public var stopNote: JobStopNote?
    /// The package tool whose transaction the job is (`apt`, `dnf`), as its driver names it
    /// (`JobDriver.packageTool`): the history's kind of its run. `nil` for a job of commands
    /// and for other drivers; a job of packages without it is apt's (an observed dpkg run).
    public var packageTool: String?

    public init(id: Int, name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool,
                awaitsConfirmation: Bool = false, runByDriver: Bool = false, declaredByDriver: Bool = false,
                observedBy: ObservedInitiator? = nil, undoOf: Int? = nil, stopNote: JobStopNote? = nil,
                packageTool: String? = nil) {
        self.packageTool = packageTool
        self.undoOf = undoOf
        self.stopNote = stopNote
        self.id = id
        self.name = name
        self.operation = operation
        self.updates = updates
        self.stopOnFailure = stopOnFailure
        self.awaitsConfirmation = awaitsConfirmation
        self.runByDriver = runByDriver
        self.declaredByDriver = declaredByDriver
        self.observedBy = observedBy
    }
}
