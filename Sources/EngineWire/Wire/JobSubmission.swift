import InstallEngine

/// One job as `submit` sends it: everything `JobQueue.submit` takes, updates in full
/// (commands, working directory, environment, limits), so the engine needs no access to the
/// manifest file; or a job of a kind, whose spec the engine plans.
public struct JobSubmission: Sendable, Hashable {
    public var name: String
    public var operation: UpdateOperation
    /// Empty for a job of a kind: the engine's plan gives them.
    public var updates: [Update]
    public var stopOnFailure: Bool
    /// `nil` for a job of commands; otherwise the kind and its spec, sent as a member named
    /// after the kind (`"apt":{"install":[…]}`, `"ansible":{"playbook":…}`), which the
    /// engine plans (apt's simulation, ansible-playbook --list-hosts) before queuing it.
    public var kind: JobKindSpec?
    /// The operator said yes beforehand (`submit --yes`, `installtop apt --yes`): a job of a
    /// kind whose plan is reviewed (`JobKind.asksBeforeRunning`: apt) starts without awaiting
    /// a `confirm`. Sent as `"yes":true`; missing means no.
    public var yes: Bool
    /// A job of commands that awaits a `confirm` all the same, as a reviewed plan does (the
    /// finishing job of `installtop apt repair`, which changes dpkg's database). Sent as
    /// `"ask":true`; missing means no. An engine older than it runs the job at once.
    public var asks: Bool

    public init(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool, kind: JobKindSpec? = nil,
                yes: Bool = false, asks: Bool = false) {
        self.yes = yes
        self.asks = asks
        self.name = name
        self.operation = operation
        self.updates = updates
        self.stopOnFailure = stopOnFailure
        self.kind = kind
    }

    /// Whether the engine holds the job until a `confirm`: a job of a kind whose plan is
    /// reviewed, or one that `asks`, submitted without `yes`.
    public var awaitsConfirmation: Bool { !yes && (asks || kind?.kind.asksBeforeRunning == true) }

    /// The job as a JSON object.
    public var json: String {
        var object = JSONObject()
        object.add("name", name)
        object.add("operation", operation.name)
        object.add("stopOnFailure", stopOnFailure)
        if yes { object.add("yes", true) }
        if asks { object.add("ask", true) }
        object.addRaw("updates", "[" + updates.map(UpdateCoding.encode).joined(separator: ",") + "]")
        if let kind {
            object.addObject(kind.key) { members in kind.encode(into: &members) }
        }
        return object.json
    }

    /// Reads a job object; a member named after one of `kinds` makes it a job of that kind.
    /// - Throws: `badArgument` naming the member at fault.
    public init(_ object: WireObject, kinds: JobKinds = JobKinds()) throws(WireError) {
        name = try object.string("name")
        operation = try object.name("operation", UpdateOperation.named, expected: "install or uninstall")
        stopOnFailure = try object.bool("stopOnFailure", default: false)
        yes = try object.bool("yes", default: false)
        asks = try object.bool("ask", default: false)
        var updates: [Update] = []
        for item in try object.objects("updates") { updates.append(try UpdateCoding.decode(item)) }
        self.updates = updates
        kind = try kinds.spec(in: object)
    }
}
