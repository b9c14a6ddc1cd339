/// Something the fleet could not do (a missing tool, a host that never answered, a command
/// that had to succeed), with what to look at.
public struct FleetTestError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
