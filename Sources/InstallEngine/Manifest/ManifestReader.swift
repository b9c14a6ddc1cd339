import Glibc
import Foundation
import Yams

/// Walks a composed YAML tree and turns it into jobs, collecting every problem on the way
/// instead of stopping at the first. A node of the wrong shape is reported once and not looked
/// into, so one mistake does not cascade into many messages.
struct ManifestReader {
    /// The manifest's path as given, for messages.
    let file: String
    /// The manifest's folder, absolute: the base of relative workdirs and the default workdir.
    let folder: String
    private(set) var errors: [ManifestError] = []
    /// What may still work when the update runs (a program looked up on `PATH` that is not there now).
    private(set) var warnings: [ManifestError] = []
    /// Update ids seen so far, with where each was first written.
    private var firstIDPositions: [String: SourcePosition] = [:]

    init(file: String) {
        self.file = file
        folder = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().path
    }

    // MARK: - Reporting

    mutating func report(_ message: String, at position: SourcePosition) {
        errors.append(ManifestError(file: file, line: position.line, column: position.column, message: message))
    }

    mutating func report(_ message: String, at node: Node) {
        report(message, at: SourcePosition(node))
    }

    // MARK: - Top level

    /// The jobs of the document `root` (`nil` for an empty file). When `errors` is not empty
    /// afterwards, the jobs are incomplete and must not be run.
    mutating func read(_ root: Node?) -> [ManifestJob] {
        guard let root, !isNull(root) else {
            report("no jobs", at: .start)
            return []
        }
        guard let top = fields(of: root, in: .topLevel) else { return [] }
        var defaults = UpdateSettings()
        if let node = top["defaults"], !isNull(node), let fields = fields(of: node, in: .defaults) {
            defaults = settings(from: fields)
        }
        guard let jobsNode = top["jobs"], !isNull(jobsNode) else {
            report("no jobs", at: top.keyPosition("jobs") ?? top.position)
            return []
        }
        guard case .sequence(let sequence) = jobsNode else {
            report("expected a list of jobs; got \(describe(jobsNode))", at: jobsNode)
            return []
        }
        guard !sequence.isEmpty else {
            report("no jobs", at: top.keyPosition("jobs") ?? top.position)
            return []
        }
        var jobs: [ManifestJob] = []
        for (index, node) in sequence.enumerated() {
            if let job = job(from: node, number: index + 1, defaults: defaults) { jobs.append(job) }
        }
        return jobs
    }

    // MARK: - Jobs

    private mutating func job(from node: Node, number: Int, defaults: UpdateSettings) -> ManifestJob? {
        guard let fields = fields(of: node, in: .job) else { return nil }
        let name = required("name", in: fields, section: .job).flatMap { nonEmptyString($0) }
        var operation: UpdateOperation? = .install
        if let node = fields["operation"] {
            operation = choice(node, among: UpdateOperation.allCases, named: \.name)
        }
        var stopOnFailure = false
        if let node = fields["stop_on_failure"] { stopOnFailure = boolean(node) ?? false }
        let settings = defaults.overridden(by: settings(from: fields))

        let label = name.map { "job `\($0)`" } ?? "job #\(number)"
        if let ansibleNode = fields["ansible"] {
            if fields["updates"] != nil || fields["apt"] != nil {
                report("\(label) has `ansible` and `\(fields["apt"] != nil ? "apt" : "updates")`; a fleet run's jobs are its hosts",
                       at: fields.keyPosition("ansible") ?? fields.position)
                return nil
            }
            guard let fleet = fleetJob(from: ansibleNode), let name else { return nil }
            return ManifestJob(name: name, operation: .install, stopOnFailure: stopOnFailure, updates: [], line: fields.position.line,
                               fleet: fleet)
        }
        if let aptNode = fields["apt"] {
            if let updatesNode = fields["updates"], !isNull(updatesNode) {
                report("\(label) has both `apt` and `updates`; an apt job's updates are the packages apt plans",
                       at: fields.keyPosition("updates") ?? fields.position)
                return nil
            }
            guard let package = packageJob(from: aptNode), let name else { return nil }
            if fields["operation"] != nil, operation != package.request.operation {
                report("\(label): `operation` is \(package.request.operation.name) for this apt request; leave it out",
                       at: fields.keyPosition("operation") ?? fields.position)
                return nil
            }
            return ManifestJob(name: name, operation: package.request.operation, stopOnFailure: stopOnFailure, updates: [],
                               line: fields.position.line, package: package)
        }
        guard let updatesNode = fields["updates"], !isNull(updatesNode) else {
            report("\(label) has no updates", at: fields.keyPosition("updates") ?? fields.position)
            return nil
        }
        guard case .sequence(let sequence) = updatesNode else {
            report("expected a list of updates; got \(describe(updatesNode))", at: updatesNode)
            return nil
        }
        guard !sequence.isEmpty else {
            report("\(label) has no updates", at: fields.keyPosition("updates") ?? fields.position)
            return nil
        }
        var updates: [Update] = []
        var complete = true
        for updateNode in sequence {
            guard let read = update(from: updateNode, settings: settings, operation: operation) else {
                complete = false
                continue
            }
            // Rule 2, caught before anything runs.
            if sequence.count > 1, read.impact == .exclusive {
                let subject = read.id.map { "update `\($0)`" } ?? "this update"
                report(
                    "\(subject) has impact exclusive and must be alone in its job, but \(label) has \(sequence.count) updates",
                    at: read.impactPosition)
            }
            if let update = read.update { updates.append(update) } else { complete = false }
        }
        guard let name, let operation, complete else { return nil }
        return ManifestJob(
            name: name, operation: operation, stopOnFailure: stopOnFailure, updates: updates, line: fields.position.line)
    }

    // MARK: - Package jobs

    /// `apt: {install: [a, b]}`, `{upgrade: true}`, `{full_upgrade: true}` or `{remove: [a]}`, with
    /// an optional `apt_config` and `chroot` (relative to the manifest's folder; the chroot must be
    /// a folder). Exactly one request.
    private mutating func packageJob(from node: Node) -> PackageJob? {
        guard let fields = fields(of: node, in: .apt) else { return nil }
        var requests: [PackageRequest] = []
        var complete = true
        for key in ["install", "remove"] {
            guard let value = fields[key] else { continue }
            guard let packages = stringList(value) else {
                complete = false
                continue
            }
            guard !packages.isEmpty else {
                report("`\(key)` names no package", at: value)
                complete = false
                continue
            }
            requests.append(key == "install" ? .install(packages) : .remove(packages))
        }
        for key in ["upgrade", "full_upgrade"] {
            guard let value = fields[key] else { continue }
            guard let flag = boolean(value) else {
                complete = false
                continue
            }
            if flag { requests.append(key == "upgrade" ? .upgrade : .fullUpgrade) }
        }
        var aptConfig: String?
        if let value = fields["apt_config"], let path = nonEmptyString(value) {
            let expanded = NSString(string: path).expandingTildeInPath
            aptConfig = URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
            if !FileManager.default.fileExists(atPath: aptConfig ?? "") {
                report("apt_config `\(aptConfig ?? path)` does not exist", at: value)
                complete = false
            }
        }
        var chroot: String?
        if let value = fields["chroot"], let path = nonEmptyString(value) {
            let expanded = NSString(string: path).expandingTildeInPath
            let folder = URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue {
                chroot = folder
            } else {
                report("chroot `\(folder)` is not a folder", at: value)
                complete = false
            }
        }
        guard complete else { return nil }
        guard requests.count == 1, let request = requests.first else {
            report("expected one of install, upgrade, full_upgrade or remove in apt; got \(requests.isEmpty ? "none" : "\(requests.count)")",
                   at: fields.position)
            return nil
        }
        return PackageJob(request: request, aptConfig: aptConfig, chroot: chroot)
    }

    /// `ansible: {playbook: site.yml, inventory: hosts.ini, limit: web*, args: [--check]}`: the
    /// playbook must exist (relative paths start at the manifest's folder); `inventory` is one
    /// path or a list, kept as written when no such file exists (a host list such as `web1,`).
    private mutating func fleetJob(from node: Node) -> FleetJob? {
        guard let fields = fields(of: node, in: .ansible) else { return nil }
        guard let playbookNode = required("playbook", in: fields, section: .ansible), let playbook = nonEmptyString(playbookNode) else {
            return nil
        }
        let base = URL(fileURLWithPath: folder, isDirectory: true)
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: NSString(string: path).expandingTildeInPath, relativeTo: base).standardizedFileURL.path
        }
        let playbookPath = resolved(playbook)
        guard FileManager.default.fileExists(atPath: playbookPath) else {
            report("playbook `\(playbookPath)` does not exist", at: playbookNode)
            return nil
        }
        var inventories: [String] = []
        if let value = fields["inventory"] {
            let listed: [String]?
            if case .sequence = value { listed = stringList(value) } else { listed = nonEmptyString(value).map { [$0] } }
            guard let listed else { return nil }
            inventories = listed.map { FileManager.default.fileExists(atPath: resolved($0)) ? resolved($0) : $0 }
        }
        var arguments: [String] = []
        if let value = fields["args"] {
            guard let list = stringList(value) else { return nil }
            arguments = list
        }
        var limit: String?
        if let value = fields["limit"] {
            guard let text = nonEmptyString(value) else { return nil }
            limit = text
        }
        return FleetJob(playbook: playbookPath, inventories: inventories, limit: limit, arguments: arguments)
    }

    // MARK: - Updates

    /// What was read of one update. `update` is `nil` when a required part is missing; the
    /// id and impact are kept anyway for the checks that span updates.
    private struct ReadUpdate {
        var id: String?
        var impact: InstallationImpact
        var impactPosition: SourcePosition
        var update: Update?
    }

    private mutating func update(
        from node: Node, settings inherited: UpdateSettings, operation: UpdateOperation?
    ) -> ReadUpdate? {
        guard let fields = fields(of: node, in: .update) else { return nil }
        var id: String?
        if let idNode = required("id", in: fields, section: .update), let text = nonEmptyString(idNode) {
            if let first = firstIDPositions[text] {
                report("duplicate id `\(text)`; first used at line \(first.line)", at: idNode)
            } else {
                firstIDPositions[text] = SourcePosition(idNode)
            }
            id = text
        }
        var revision = 1
        if let node = fields["revision"] { revision = integer(node, atLeast: 1) ?? revision }
        let title = fields["title"].flatMap { nonEmptyString($0) }
        let installCommand = fields["install"].flatMap { command($0) }
        let uninstallCommand = fields["uninstall"].flatMap { command($0) }
        let settings = inherited.overridden(by: settings(from: fields))
        let size = fields["size"].flatMap { integer($0, atLeast: 0) }
        let severity = fields["severity"].flatMap { string($0) }
        let description = fields["description"].flatMap { string($0) }
        let categories = fields["categories"].flatMap { stringList($0) } ?? []

        // Only an absent key is "missing": a present but invalid command was reported already.
        if let operation, fields[operation.name] == nil {
            let subject = id.map { "update `\($0)`" } ?? "an update"
            report(
                "missing command: \(subject) in an \(operation.name) job needs an `\(operation.name)` command",
                at: fields.position)
        }

        if let operation, let node = fields[operation.name],
           case .argv(let arguments)? = operation == .install ? installCommand : uninstallCommand {
            checkProgram(arguments[0], at: SourcePosition(node.sequence?.first ?? node),
                         workingDirectory: settings.workingDirectory ?? folder, environment: settings.environment)
        }

        let impact = settings.impact ?? .normal
        var read = ReadUpdate(id: id, impact: impact, impactPosition: settings.impactPosition ?? fields.position)
        if let id {
            read.update = Update(
                id: id,
                revision: revision,
                title: title ?? id,
                installCommand: installCommand,
                uninstallCommand: uninstallCommand,
                rebootBehavior: settings.rebootBehavior ?? .never,
                impact: impact,
                progressSource: settings.progressSource ?? .channel,
                timeout: settings.timeout ?? nil,
                abortGrace: settings.abortGrace ?? .seconds(10),
                workingDirectory: settings.workingDirectory ?? folder,
                environment: settings.environment,
                sizeInBytes: size.map(Int64.init),
                severity: severity,
                description: description,
                categories: categories)
        }
        return read
    }

    // MARK: - Settings shared by defaults, jobs and updates

    private mutating func settings(from fields: ManifestFields) -> UpdateSettings {
        var settings = UpdateSettings()
        if let node = fields["timeout"] { settings.timeout = timeout(node) }
        if let node = fields["abort_grace"] { settings.abortGrace = duration(node) }
        if let node = fields["reboot"] {
            settings.rebootBehavior = choice(node, among: RebootBehavior.allCases, named: \.name)
        }
        if let node = fields["impact"] {
            settings.impact = choice(node, among: InstallationImpact.allCases, named: \.name)
            settings.impactPosition = SourcePosition(node)
        }
        if let node = fields["progress"] {
            settings.progressSource = choice(node, among: ProgressSource.allCases, named: \.rawValue)
        }
        if let node = fields["workdir"] { settings.workingDirectory = directory(node) }
        if let node = fields["env"] { settings.environment = environment(node) ?? [:] }
        return settings
    }

    // MARK: - Programs

    /// What can be known now about the program an update will run: a path (with a `/`) must be
    /// an executable file, relative to the update's working directory; a name is looked up on
    /// `PATH` (the update's `env` may set it) and only warned about, since a package installed
    /// by an earlier update may provide it. Shell strings are the shell's business.
    private mutating func checkProgram(_ program: String, at position: SourcePosition, workingDirectory: String, environment: [String: String]) {
        if program.contains("/") {
            let path = URL(fileURLWithPath: program, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
                .standardizedFileURL.path
            var info = stat()
            guard stat(path, &info) == 0 else {
                report("`\(program)` does not exist (\(path))", at: position)
                return
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                report("`\(program)` is not a file (\(path))", at: position)
                return
            }
            if access(path, X_OK) != 0 {
                report("`\(program)` is not executable (\(path)); make it so with chmod +x", at: position)
            }
            return
        }
        let searchPath = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"]
        if case .failure = ExecutableLookup.find(program, searchPath: searchPath, workingDirectory: workingDirectory) {
            warnings.append(ManifestError(
                file: file, line: position.line, column: position.column,
                message: "warning: `\(program)` is not an executable on PATH now; the update fails unless it is there when it runs"))
        }
    }
}
