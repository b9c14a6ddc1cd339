import InstallEngine

/// One job as `submit` sends it: everything `JobQueue.submit` takes, updates in full
/// (commands, working directory, environment, limits), so the engine needs no access to the
/// manifest file.
public struct JobSubmission: Sendable, Hashable {
    public var name: String
    public var operation: UpdateOperation
    public var updates: [Update]
    public var stopOnFailure: Bool

    public init(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool) {
        self.name = name
        self.operation = operation
        self.updates = updates
        self.stopOnFailure = stopOnFailure
    }

    /// The job as a JSON object.
    public var json: String {
        var object = JSONObject()
        object.add("name", name)
        object.add("operation", operation.name)
        object.add("stopOnFailure", stopOnFailure)
        object.addRaw("updates", "[" + updates.map(UpdateCoding.encode).joined(separator: ",") + "]")
        return object.json
    }

    /// Reads a job object.
    /// - Throws: `badArgument` naming the member at fault.
    public init(_ object: WireObject) throws(WireError) {
        name = try object.string("name")
        operation = try object.name("operation", UpdateOperation.named, expected: "install or uninstall")
        stopOnFailure = try object.bool("stopOnFailure", default: false)
        var updates: [Update] = []
        for item in try object.objects("updates") { updates.append(try UpdateCoding.decode(item)) }
        self.updates = updates
    }
}
