/// Why a driver's line was not understood. Never fatal (rule 22): the line is ignored and
/// counted, and the first few are shown with this text.
public struct DriverProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
