/// What the age gate says of one package's candidate version.
public enum AgeDecision: Sendable, Hashable {
    case take(package: String)
    /// Too young: taken by a night that runs at `until` (seconds since 1970) or later.
    case wait(package: String, until: Int)

    public var isTaken: Bool {
        if case .take = self { return true }
        return false
    }
}
