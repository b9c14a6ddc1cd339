extension Duration {
    /// A short human form: `450ms`, `12s`, `1m30s`, `2h5m`. Sub-second values show
    /// milliseconds; longer ones are cut to whole seconds.
    public var shortText: String {
        let milliseconds = wholeMilliseconds
        if milliseconds < 1000 { return "\(max(0, milliseconds))ms" }
        let seconds = milliseconds / 1000
        let (hours, minutes, rest) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
        if hours > 0 { return minutes > 0 ? "\(hours)h\(minutes)m" : "\(hours)h" }
        if minutes > 0 { return rest > 0 ? "\(minutes)m\(rest)s" : "\(minutes)m" }
        return "\(rest)s"
    }

    /// The duration in whole milliseconds, rounded down.
    public var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
