/// `{"type":"hello","protocol":1,"driver":"installtop-apt"}`
public struct DriverHello: Sendable, Hashable {
    /// The protocol version the driver speaks; `DriverMessage.decode` refuses any but `DriverProtocol.version`.
    public var protocolVersion: Int
    /// The driver's name, for messages.
    public var driver: String

    public init(protocolVersion: Int = DriverProtocol.version, driver: String) {
        self.protocolVersion = protocolVersion
        self.driver = driver
    }
}
