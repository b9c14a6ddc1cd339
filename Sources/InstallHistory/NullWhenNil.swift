/// An optional field of a JSON listing written as `null` when it has no value, where Swift's
/// synthesized `Encodable` leaves the key out: every line of `installtop history --json` and
/// `--jobs --json` then has the same keys, and the type needs no `encode(to:)` of its own.
@propertyWrapper
public struct NullWhenNil<Value: Encodable & Sendable & Hashable>: Encodable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// The value as its own type would write it, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}
