/// Where a process reads the install history from: the engine's `history` and `durations`
/// replies and the monitor's `h` view and ETAs.
public enum HistorySource: Sendable {
    /// No history; the text is the reason, shown or sent instead of rows.
    case off(String)
    case store(HistoryStore)
}
