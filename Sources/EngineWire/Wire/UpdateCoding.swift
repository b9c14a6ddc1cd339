import InstallEngine

/// A whole `Update` as JSON, for `submit`. The names follow the manifest's keys (`install`,
/// `uninstall`, `reboot`, `impact`, `progress`, `size`, `severity`, `workdir`, `env`), with
/// durations in milliseconds (`timeoutMs`, `abortGraceMs`). A command is an array (argv) or a
/// string (run by `/bin/sh -c`), as in the manifest. An update of a package job also has
/// `package` (as in `job.queued`; see `PackageChangeCoding`), which manifests do not spell.
public enum UpdateCoding {
    public static func encode(_ update: Update) -> String {
        var object = JSONObject()
        object.add("id", update.id)
        object.add("revision", update.revision)
        object.add("title", update.title)
        if let command = update.installCommand { object.add("install", commandJSON(command)) }
        if let command = update.uninstallCommand { object.add("uninstall", commandJSON(command)) }
        object.add("reboot", update.rebootBehavior.name)
        object.add("impact", update.impact.name)
        object.add("progress", update.progressSource.rawValue)
        if let timeout = update.timeout { object.add("timeoutMs", timeout.wholeMilliseconds) }
        object.add("abortGraceMs", update.abortGrace.wholeMilliseconds)
        if let workdir = update.workingDirectory { object.add("workdir", workdir) }
        if !update.environment.isEmpty { object.add("env", .object(JSONMembers(update.environment.mapValues(JSONValue.string)))) }
        if let size = update.sizeInBytes { object.add("size", size) }
        if let severity = update.severity { object.add("severity", severity) }
        if let description = update.description { object.add("description", description) }
        if !update.categories.isEmpty { object.add("categories", strings: update.categories) }
        if let package = update.package { object.addRaw(PackageChangeCoding.key, bytes: PackageChangeCoding.bytes(package)) }
        return object.json
    }

    /// - Throws: `badArgument` naming the member at fault.
    public static func decode(_ object: WireObject) throws(WireError) -> Update {
        let environment = try object.stringMap("env")
        let timeout = try object.optionalInt("timeoutMs").map { Duration.milliseconds($0) }
        let grace = try object.optionalInt("abortGraceMs").map { Duration.milliseconds($0) } ?? .seconds(10)
        return Update(
            id: try object.string("id"), revision: try object.optionalInt("revision") ?? 1, title: try object.optionalString("title"),
            installCommand: try command(object, "install"), uninstallCommand: try command(object, "uninstall"),
            rebootBehavior: try object.optionalName("reboot", RebootBehavior.named, expected: "never, always or may") ?? .never,
            impact: try object.optionalName("impact", InstallationImpact.named, expected: "normal, minor or exclusive") ?? .normal,
            progressSource: try object.optionalName("progress", ProgressSource.init(rawValue:), expected: "channel, output or none")
                ?? .channel,
            timeout: timeout, abortGrace: grace, workingDirectory: try object.optionalString("workdir"),
            environment: environment, sizeInBytes: try object.optionalInt("size").map(Int64.init),
            severity: try object.optionalString("severity"), description: try object.optionalString("description"),
            categories: try object.strings("categories"), package: try PackageChangeCoding.decode(from: object))
    }

    private static func commandJSON(_ command: UpdateCommand) -> JSONValue {
        switch command {
        case .argv(let arguments): return .array(arguments.map(JSONValue.string))
        case .shell(let script): return .string(script)
        }
    }

    private static func command(_ object: WireObject, _ key: String) throws(WireError) -> UpdateCommand? {
        switch object.members[key] {
        case nil, .null?: return nil
        case .string(let script)?: return .shell(script)
        case .array?:
            let arguments = try object.strings(key)
            guard !arguments.isEmpty else { throw WireError(.badArgument, "\(object.context): `\(key)` must not be an empty list") }
            return .argv(arguments)
        default:
            throw WireError(.badArgument, "\(object.context): `\(key)` must be a list of arguments or a shell string")
        }
    }
}
