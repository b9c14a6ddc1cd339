/// An installed package a newer version of which is known but which an upgrade would leave as
/// it is, and why.
public struct HeldBackPackage: Sendable, Hashable {
    public var name: String
    public var installedVersion: String
    /// The version it would go to were it not held back: apt's candidate, or for a pinned
    /// package the newest version the lists offer.
    public var availableVersion: String
    public var reason: HeldBackReason

    public init(name: String, installedVersion: String, availableVersion: String, reason: HeldBackReason) {
        self.name = name
        self.installedVersion = installedVersion
        self.availableVersion = availableVersion
        self.reason = reason
    }
}
