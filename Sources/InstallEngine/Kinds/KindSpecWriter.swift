/// Where a kind writes its spec for a submission (`JobKind.encode(_:into:)`): the members of
/// the one object under the kind's key, in the order they are added. The engine knows no
/// JSON: EngineWire's `JSONObject` is the writer `submit` uses, and what a kind adds here is
/// what `JobKind.decode(_:)` reads back through a `KindSpecReader`.
public protocol KindSpecWriter {
    mutating func add(_ key: String, _ value: String)
    mutating func add(_ key: String, _ value: Int)
    mutating func add(_ key: String, _ value: Bool)
    mutating func add(_ key: String, _ value: Double)
    /// A list of strings; an empty list is written as one, not left out.
    mutating func add(_ key: String, strings: [String])
    /// An object of strings (an environment); an empty map is written as an empty object.
    mutating func add(_ key: String, stringMap: [String: String])
    /// An object of its own, whose members `members` adds.
    mutating func addObject(_ key: String, _ members: (inout Self) -> Void)
}
