import InstallEngine

/// One job as `submit` sends it: everything `JobQueue.submit` takes, updates in full
/// (commands, working directory, environment, limits), so the engine needs no access to the
/// manifest file.
public struct JobSubmission: Sendable, Hashable {
    public var name: String
    public var operation: UpdateOperation
    public var updates: [Update]
    public var stopOnFailure: Bool
    /// A package job (`"apt":{"install":[…]}`, `{"upgrade":true}`, `{"full_upgrade":true}`,
    /// `{"remove":[…]}`, with an optional `"aptConfig"` and `"chroot"`): the engine asks apt for the plan, so
    /// `updates` is empty.
    public var package: PackageJob?
    /// A fleet run (`"ansible":{"playbook":…,"inventories":[…],"limit":…,"args":[…]}`): the
    /// engine runs it as a driver session, whose hosts become jobs as it runs.
    public var fleet: FleetJob?

    public init(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool, package: PackageJob? = nil,
                fleet: FleetJob? = nil) {
        self.name = name
        self.operation = operation
        self.updates = updates
        self.stopOnFailure = stopOnFailure
        self.package = package
        self.fleet = fleet
    }

    /// The job as a JSON object.
    public var json: String {
        var object = JSONObject()
        object.add("name", name)
        object.add("operation", operation.name)
        object.add("stopOnFailure", stopOnFailure)
        object.addRaw("updates", "[" + updates.map(UpdateCoding.encode).joined(separator: ",") + "]")
        if let package {
            var apt = JSONObject()
            switch package.request {
            case .install(let packages): apt.add("install", strings: packages)
            case .remove(let packages): apt.add("remove", strings: packages)
            case .upgrade: apt.add("upgrade", true)
            case .fullUpgrade: apt.add("full_upgrade", true)
            }
            if let aptConfig = package.aptConfig { apt.add("aptConfig", aptConfig) }
            if let chroot = package.chroot { apt.add("chroot", chroot) }
            object.addRaw("apt", apt.json)
        }
        if let fleet {
            var ansible = JSONObject()
            ansible.add("playbook", fleet.playbook)
            ansible.add("inventories", strings: fleet.inventories)
            if let limit = fleet.limit { ansible.add("limit", limit) }
            ansible.add("args", strings: fleet.arguments)
            object.addRaw("ansible", ansible.json)
        }
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
        package = try Self.package(object)
        fleet = try Self.fleet(object)
    }

    private static func fleet(_ object: WireObject) throws(WireError) -> FleetJob? {
        guard let value = object.members["ansible"], !value.isNull else { return nil }
        guard let members = value.objectValue else { throw WireError(.badArgument, "\(object.context): `ansible` must be an object") }
        let ansible = WireObject(members, context: object.context + ".ansible")
        return FleetJob(playbook: try ansible.string("playbook"), inventories: try ansible.strings("inventories"),
                        limit: try ansible.optionalString("limit"), arguments: try ansible.strings("args"))
    }

    private static func package(_ object: WireObject) throws(WireError) -> PackageJob? {
        guard let value = object.members["apt"], !value.isNull else { return nil }
        guard let members = value.objectValue else { throw WireError(.badArgument, "\(object.context): `apt` must be an object") }
        let apt = WireObject(members, context: object.context + ".apt")
        let named = ["install", "remove", "upgrade", "full_upgrade"].filter { members[$0] != nil }
        guard named.count <= 1 else {
            throw WireError(.badArgument, "\(object.context): `apt` asks for one of install, remove, upgrade or full_upgrade; got \(named.joined(separator: " and "))")
        }
        let request: PackageRequest
        if members["install"] != nil {
            request = .install(try apt.strings("install"))
        } else if members["remove"] != nil {
            request = .remove(try apt.strings("remove"))
        } else if try apt.bool("upgrade", default: false) {
            request = .upgrade
        } else if try apt.bool("full_upgrade", default: false) {
            request = .fullUpgrade
        } else {
            throw WireError(.badArgument, "\(object.context): `apt` needs install, remove, upgrade or full_upgrade")
        }
        return PackageJob(request: request, aptConfig: try apt.optionalString("aptConfig"), chroot: try apt.optionalString("chroot"))
    }
}
