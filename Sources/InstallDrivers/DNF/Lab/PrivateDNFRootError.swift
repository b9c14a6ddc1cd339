/// Why a `PrivateDNFRoot` could not be made or filled: a tool missing, a build that failed.
public struct PrivateDNFRootError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
