/// Which of a host's pending upgrades a night takes.
public enum PackageSelection: Sendable, Hashable {
    /// Upgrades from a security origin only (the pending snapshot's `security`).
    case security
    case all
    /// These packages only, by name, when they have an upgrade.
    case list([String])

    /// Whether an upgrade of `package`, from a security origin or not, is taken.
    public func includes(_ package: String, isSecurity: Bool) -> Bool {
        switch self {
        case .security: isSecurity
        case .all: true
        case .list(let names): names.contains(package)
        }
    }

    /// `security updates only`, `all updates`, `openssl, nginx`.
    public var description: String {
        switch self {
        case .security: "security updates only"
        case .all: "all updates"
        case .list(let names): names.joined(separator: ", ")
        }
    }
}
