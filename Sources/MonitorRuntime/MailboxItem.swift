import InstallEngine
import Monitor

/// What other threads hand the monitor's loop.
public enum MailboxItem: Sendable {
    /// An engine event, from the queue's callback thread or the socket's reader.
    case engine(EngineEvent)
    /// A message for the status line (a refused command).
    case commandResult(String)
    /// Any other event for the monitor's state (history rows, median durations).
    case monitor(MonitorEvent)
    /// The engine is gone (its socket closed): the monitor ends, saying why.
    case linkLost(String)
    /// Everything the engine had when the monitor connected has been posted: the first frame
    /// may be drawn (before it, it would show a queue still arriving).
    case ready
}
