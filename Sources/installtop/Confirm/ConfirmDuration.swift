import InstallEngine

/// Durations as `--confirm` and `--extend` take them, and the countdown says them: `90s`,
/// `5m`, `1h30m`, `2h`, or a plain number of seconds.
enum ConfirmDuration {
    /// The seconds `text` says; `nil` when it says none (empty, a unit missing its number, an
    /// unknown unit).
    static func seconds(_ text: String) -> Double? {
        if let plain = Double(text) { return plain >= 0 ? plain : nil }
        return DurationParser.parse(text, units: units).map { $0 / .seconds(1) }
    }

    /// What `--confirm` and `--extend` are written in: seconds to days, no milliseconds.
    private static let units: [DurationParser.Unit] = [.seconds, .minutes, .hours, .days]

    /// `1h 02m`, `4m 05s`, `9s`: what is left, rounded up to the second.
    static func text(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded(.up)))
        let (hours, minutes, rest) = (whole / 3600, whole % 3600 / 60, whole % 60)
        if hours > 0 { return "\(hours)h \(minutes < 10 ? "0" : "")\(minutes)m" }
        if minutes > 0 { return "\(minutes)m \(rest < 10 ? "0" : "")\(rest)s" }
        return "\(rest)s"
    }
}
