/// Why a text is not one JSON value: what was expected, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset (from 0) where the problem was found.
    public var offset: Int
    public var message: String

    public var description: String { "invalid JSON at byte \(offset + 1): \(message)" }
}
