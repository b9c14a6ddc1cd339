/// One opening of a policy's window: the instants it opens and closes (seconds since 1970, UTC).
public struct WindowOccurrence: Sendable, Hashable, Codable {
    public let start: Int
    /// After `start`.
    public let end: Int
    /// The window's index among the policy's `windows`.
    public let window: Int

    /// Whether the window is open at `now`: from `start` on, until before `end`.
    public func isOpen(at now: Int) -> Bool { start <= now && now < end }
}
