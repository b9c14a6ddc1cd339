/// The order of the grouped board's hosts (`o` steps through them); hosts that compare equal
/// keep the order the operator gave.
public enum HostSort: Sendable, Hashable, CaseIterable {
    /// As the operator gave them (`--host`, the inventory).
    case given
    case name
    /// Most pending packages first; hosts with no snapshot last.
    case pendingCount
    /// Most security updates first, then most pending packages; hosts with no snapshot last.
    case securityFirst

    /// How the header says it: `sorted by pending`.
    public var title: String {
        switch self {
        case .given: return "as given"
        case .name: return "name"
        case .pendingCount: return "pending"
        case .securityFirst: return "security first"
        }
    }

    /// The order after this one, back to `given` after the last.
    public var next: HostSort {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
