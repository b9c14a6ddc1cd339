import InstallEngine

/// An error reply's reason: a stable `code` for programs and a `message` for people.
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable names of the reasons, as they appear in `"error"`.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The line is not a JSON object.
        case malformed
        /// The line was longer than the engine accepts; it was skipped.
        case lineTooLong
        /// `"command"` names no command the engine knows.
        case unknownCommand
        /// A member of the command is missing or has the wrong type.
        case badArgument
        case unknownJob
        case alreadyCompleted
        case notCompleted
        case nothingToRetry
        /// A decline of a job that does not await a yes.
        case notAwaitingConfirmation
        /// The job is observed (another program's transaction): it cannot be aborted (rule 29).
        case observedJob
        /// A submitted job failed validation; nothing was queued.
        case invalidJob
        /// A submitted job of a kind has nothing to do (apt's plan is empty); nothing was queued.
        case nothingToDo
        /// The peer's uid is not the engine's: the connection is closed after this reply.
        case notAllowed
        /// History is off or cannot be read.
        case historyUnavailable
        /// An undo was refused, changing nothing: the run cannot be undone now, a package changed
        /// since, or this engine runs no undo (the message says which and what to do).
        case notUndoable
        /// The engine is stopping and takes no new jobs.
        case shuttingDown
        /// A commit-confirmed run's confirmation or extension was refused: not armed, too late,
        /// or decided already (the message says which).
        case confirmRefused
        /// `checkRun` of a run whose window is not armed (confirmed, being reverted, reverted,
        /// expired, never armed), or does not say which checks it ran: nothing ran.
        case notArmed
        /// The line could not be understood as a message from the engine (client side only).
        case unexpectedMessage
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The reply for a refusal of the queue.
    public init(_ error: JobCommandError) {
        switch error {
        case .unknownJob: self.init(.unknownJob, error.description)
        case .alreadyCompleted: self.init(.alreadyCompleted, error.description)
        case .notCompleted: self.init(.notCompleted, error.description)
        case .nothingToRetry: self.init(.nothingToRetry, error.description)
        case .notAwaitingConfirmation: self.init(.notAwaitingConfirmation, error.description)
        case .observed, .otherEngines: self.init(.observedJob, error.description)
        }
    }

    public var description: String { message }
}
