/// A day of the week, numbered as C's `tm_wday` (Sunday 0), named as a patch policy's windows
/// name it.
public enum Weekday: Int, Sendable, Hashable, CaseIterable, Comparable {
    case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday

    /// The day a policy writes as `name`: the English name or its first three letters, any case
    /// (`mon`, `Monday`); `nil` for anything else.
    public init?(name: String) {
        let lower = name.lowercased()
        guard let day = Weekday.allCases.first(where: { $0.name == lower || $0.name.prefix(3) == lower }) else { return nil }
        self = day
    }

    /// The lowercase English name, as `--check` prints it.
    public var name: String {
        switch self {
        case .sunday: "sunday"
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        }
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
