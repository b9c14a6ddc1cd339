import InstallEngine

/// A submission's job writes its kind's member here (`JobSubmission.json`).
extension JSONObject: KindSpecWriter {
    public mutating func add(_ key: String, stringMap: [String: String]) {
        add(key, .object(JSONMembers(stringMap.mapValues(JSONValue.string))))
    }

    public mutating func addObject(_ key: String, _ members: (inout JSONObject) -> Void) {
        var object = JSONObject()
        members(&object)
        addRaw(key, bytes: object.bytes)
    }
}
