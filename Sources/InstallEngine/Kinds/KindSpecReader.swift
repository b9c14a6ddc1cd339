/// What a kind reads its spec from in a submission (`JobKind.decode(_:)`): the members of the
/// object under the kind's key, typed. EngineWire's `WireObject` is the reader `serve` uses;
/// the engine knows no JSON. A member of the wrong type throws a `Failure` that names it; a
/// refusal of the kind's own is made with `refusal(_:)`, so it reaches the client as the
/// reader's other errors do.
public protocol KindSpecReader {
    /// The error every read throws (EngineWire's `WireError`, a bad argument).
    associatedtype Failure: Error

    /// What the object is, for messages: `job "web".apt`.
    var context: String { get }

    /// Whether the object has a member `key`, null or not.
    func contains(_ key: String) -> Bool
    /// The member `key`, an integer; missing is an error.
    func int(_ key: String) throws(Failure) -> Int
    /// The member `key`, an integer; `nil` when it is missing or null.
    func optionalInt(_ key: String) throws(Failure) -> Int?
    /// The member `key`, a number; `nil` when it is missing or null.
    func optionalDouble(_ key: String) throws(Failure) -> Double?
    /// The member `key`, a string; missing is an error.
    func string(_ key: String) throws(Failure) -> String
    /// The member `key`, a string; `nil` when it is missing or null.
    func optionalString(_ key: String) throws(Failure) -> String?
    /// The member `key`, true or false; `defaultValue` when it is missing or null.
    func bool(_ key: String, default defaultValue: Bool) throws(Failure) -> Bool
    /// The member `key`, a list of strings; empty when it is missing or null.
    func strings(_ key: String) throws(Failure) -> [String]
    /// The member `key`, an object of strings; empty when it is missing or null.
    func stringMap(_ key: String) throws(Failure) -> [String: String]
    /// The member `key`, an object, read the same way; missing is an error.
    func object(_ key: String) throws(Failure) -> Self
    /// The kind's own refusal of what the object says, `message` in full (it names the
    /// member at fault), as an error of the reader's.
    func refusal(_ message: String) -> Failure
}
