/// One version of a package that an upgrade would install: what `HistoryStore.firstSeen` dates.
public struct PendingVersion: Sendable, Hashable {
    public let package: String
    public let version: String

    public init(package: String, version: String) {
        self.package = package
        self.version = version
    }
}
