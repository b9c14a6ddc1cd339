import TextBasics

/// Days no window opens on: one date or a range of dates (both ends included), in the policy's
/// zone.
public struct BlackoutPeriod: Sendable, Hashable {
    public let first: CivilDate
    /// Not before `first`.
    public let last: CivilDate

    public init(first: CivilDate, last: CivilDate) {
        self.first = first
        self.last = last
    }

    /// Whether `date` is one of the period's days.
    public func contains(_ date: CivilDate) -> Bool { first <= date && date <= last }

    /// `YYYY-MM-DD` or `YYYY-MM-DD..YYYY-MM-DD`, as a policy writes it.
    public var description: String { first == last ? "\(first)" : "\(first)..\(last)" }
}
