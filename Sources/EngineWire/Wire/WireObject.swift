/// Typed access to the members of one JSON object of the protocol; a missing member or one of
/// the wrong type throws `badArgument` naming it.
public struct WireObject: Sendable {
    public let members: JSONMembers
    /// What the object is, for messages ("abort", "job.queued").
    public let context: String

    public init(_ members: JSONMembers, context: String) {
        self.members = members
        self.context = context
    }

    public func int(_ key: String) throws(WireError) -> Int {
        guard let value = members[key]?.intValue else { throw missing(key, "an integer") }
        return value
    }

    public func optionalInt(_ key: String) throws(WireError) -> Int? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let number = value.intValue else { throw missing(key, "an integer") }
        return number
    }

    public func double(_ key: String) throws(WireError) -> Double {
        guard let value = members[key]?.doubleValue else { throw missing(key, "a number") }
        return value
    }

    public func optionalDouble(_ key: String) throws(WireError) -> Double? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let number = value.doubleValue else { throw missing(key, "a number") }
        return number
    }

    public func string(_ key: String) throws(WireError) -> String {
        guard let value = members[key]?.stringValue else { throw missing(key, "a string") }
        return value
    }

    public func optionalString(_ key: String) throws(WireError) -> String? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw missing(key, "a string") }
        return text
    }

    /// A boolean; `defaultValue` when the member is missing or null.
    public func bool(_ key: String, default defaultValue: Bool) throws(WireError) -> Bool {
        guard let value = members[key], !value.isNull else { return defaultValue }
        guard let flag = value.boolValue else { throw missing(key, "true or false") }
        return flag
    }

    public func strings(_ key: String) throws(WireError) -> [String] {
        guard let value = members[key], !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw missing(key, "an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for element in array {
            guard let text = element.stringValue else { throw missing(key, "an array of strings") }
            strings.append(text)
        }
        return strings
    }

    /// The member `key`, an object.
    public func object(_ key: String) throws(WireError) -> WireObject {
        guard let object = members[key]?.objectValue else { throw missing(key, "an object") }
        return WireObject(object, context: "\(context).\(key)")
    }

    public func objects(_ key: String) throws(WireError) -> [WireObject] {
        guard let array = members[key]?.arrayValue else { throw missing(key, "an array of objects") }
        var objects: [WireObject] = []
        objects.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard let object = element.objectValue else { throw missing(key, "an array of objects") }
            objects.append(WireObject(object, context: "\(context).\(key)[\(index)]"))
        }
        return objects
    }

    /// A string that must be one of `T`'s names.
    public func name<T>(_ key: String, _ parse: (String) -> T?, expected: String) throws(WireError) -> T {
        let text = try string(key)
        guard let value = parse(text) else {
            throw WireError(.badArgument, "\(context): `\(key)` must be \(expected); got \"\(text)\"")
        }
        return value
    }

    /// Like `name`, `nil` when the member is missing or null.
    public func optionalName<T>(_ key: String, _ parse: (String) -> T?, expected: String) throws(WireError) -> T? {
        guard let value = members[key], !value.isNull else { return nil }
        return try name(key, parse, expected: expected)
    }

    private func missing(_ key: String, _ expected: String) -> WireError {
        WireError(.badArgument, "\(context): `\(key)` must be \(expected)")
    }
}
