import InstallEngine

/// What other threads hand the monitor's loop.
enum MailboxItem: Sendable {
    /// An engine event, from the queue's callback thread.
    case engine(EngineEvent)
    /// A message for the status line (a clean-up task's refusal).
    case commandResult(String)
}
