/// The members of a JSON object, in the order they were read.
///
/// A small array rather than a dictionary: the protocol's objects have a dozen members at
/// most, and hashing every name on insertion and lookup was a quarter of a client's time
/// reading events. Looking a name up returns its last occurrence, as a dictionary built in
/// order would. Equality and hashing ignore the order.
public struct JSONMembers: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var names: [String] = []
    private var values: [JSONValue] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (name, value) in elements { self[name] = value }
    }

    public init(_ dictionary: [String: JSONValue]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { append(name, value) }
    }

    /// Reserves room for `count` members.
    public mutating func reserveCapacity(_ count: Int) {
        names.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// Adds a member after the others, even if the name is already there (as read).
    public mutating func append(_ name: String, _ value: JSONValue) {
        names.append(name)
        values.append(value)
    }

    /// The value of the last member called `name`; setting replaces it (or appends one),
    /// setting `nil` removes every member of that name.
    public subscript(name: String) -> JSONValue? {
        get {
            guard let index = names.lastIndex(of: name) else { return nil }
            return values[index]
        }
        set {
            if let newValue {
                if let index = names.lastIndex(of: name) { values[index] = newValue } else { append(name, newValue) }
            } else {
                while let index = names.lastIndex(of: name) {
                    names.remove(at: index)
                    values.remove(at: index)
                }
            }
        }
    }

    /// The names, in order (repeated names repeat).
    public var keys: [String] { names }

    public var count: Int { names.count }
    public var isEmpty: Bool { names.isEmpty }

    /// The members as a dictionary (the last of a repeated name wins).
    public var dictionary: [String: JSONValue] {
        Dictionary(zip(names, values), uniquingKeysWith: { _, last in last })
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        zip(names, values).lazy.map { (key: $0, value: $1) }.makeIterator()
    }

    public static func == (left: JSONMembers, right: JSONMembers) -> Bool {
        left.dictionary == right.dictionary
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dictionary)
    }
}
