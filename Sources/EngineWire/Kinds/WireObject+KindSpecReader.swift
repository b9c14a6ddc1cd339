import InstallEngine

/// A submitted job's kind reads its member from here (`JobKinds.spec(in:)`).
extension WireObject: KindSpecReader {
    public func contains(_ key: String) -> Bool { members[key] != nil }

    public func stringMap(_ key: String) throws(WireError) -> [String: String] {
        var map: [String: String] = [:]
        guard let value = members[key], !value.isNull else { return map }
        guard let object = value.objectValue else { throw WireError(.badArgument, "\(context): `\(key)` must be an object of strings") }
        for (name, member) in object {
            guard let text = member.stringValue else { throw WireError(.badArgument, "\(context): `\(key).\(name)` must be a string") }
            map[name] = text
        }
        return map
    }

    public func refusal(_ message: String) -> WireError { WireError(.badArgument, message) }
}
