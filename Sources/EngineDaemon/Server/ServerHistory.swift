import InstallHistory

/// What the engine answers `history` and `durations` from.
public enum ServerHistory: Sendable {
    /// No history; the text is the reason given in replies.
    case off(String)
    case store(HistoryStore)
}
