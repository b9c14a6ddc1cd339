import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import YAMLNodes

/// Walks a composed YAML tree and turns it into jobs, collecting every problem on the way
/// instead of stopping at the first. A node of the wrong shape is reported once and not looked
/// into, so one mistake does not cascade into many messages.
struct ManifestReader: YAMLDocumentReader {
    typealias Section = ManifestSection

    /// The manifest's path as given, for messages.
    let file: String
    /// The manifest's folder, absolute: the base of relative workdirs and the default workdir.
    let folder: String
    private(set) var errors: [ManifestError] = []
    /// What may still work when the update runs (a program looked up on `PATH` that is not there now).
    private(set) var warnings: [ManifestError] = []
    /// The kinds a job may be of besides a list of commands, each with its section key.
    let kinds: [any JobKind]
    /// Update ids seen so far, with where each was first written.
    private var firstIDPositions: [String: SourcePosition] = [:]

    init(file: String, kinds: [any JobKind]) {
        self.file = file
        self.kinds = kinds
        folder = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().path
    }

    // MARK: - Reporting

    mutating func report(_ message: String, at position: SourcePosition) {
        errors.append(ManifestError(file: file, line: position.line, column: position.column, message: message))
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
        let jobSection = ManifestSection.job(kindKeys: kinds.map(\.key))
        guard let fields = fields(of: node, in: jobSection) else { return nil }
        let name = required("name", in: fields, section: jobSection).flatMap { nonEmptyString($0) }
        var operation: UpdateOperation? = .install
        if let node = fields["operation"] {
            operation = choice(node, among: UpdateOperation.allCases, named: \.name)
        }
        var stopOnFailure = false
        if let node = fields["stop_on_failure"] { stopOnFailure = boolean(node) ?? false }
        let settings = defaults.overridden(by: settings(from: fields))

        let label = name.map { "job `\($0)`" } ?? "job #\(number)"
        let written = kinds.filter { fields[$0.key] != nil }
        if let kind = written.first, let kindNode = fields[kind.key] {
            return kindJob(kind, node: kindNode, in: fields, name: name, label: label, operation: operation, stopOnFailure: stopOnFailure,
                           others: written.dropFirst().map(\.key))
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

    // MARK: - Jobs of a kind

    /// A job whose `kind` section (`apt: {…}`) says what it runs, read by the kind. Its updates
    /// come from the kind's plan, so it has no `updates`; its operation is the kind's when the
    /// kind gives one (an apt removal uninstalls), and the manifest must not contradict it.
    private mutating func kindJob(_ kind: any JobKind, node: Node, in fields: YAMLFields, name: String?, label: String,
                                  operation: UpdateOperation?, stopOnFailure: Bool, others: [String]) -> ManifestJob? {
        if let other = others.first {
            report("\(label) has both `\(kind.key)` and `\(other)`; a job is of one kind", at: fields.keyPosition(other) ?? fields.position)
            return nil
        }
        if let updatesNode = fields["updates"], !isNull(updatesNode) {
            report("\(label) has both `\(kind.key)` and `updates`; \(kind.updatesNote)", at: fields.keyPosition("updates") ?? fields.position)
            return nil
        }
        guard let sectionFields = self.fields(of: node, in: .kind(key: kind.key, keys: kind.sectionKeys, expectation: kind.sectionExpectation))
        else { return nil }
        var section = ManifestKindSection(reader: self, fields: sectionFields, key: kind.key)
        let spec = kind.readSpec(&section)
        self = section.reader
        guard let spec, let name else { return nil }
        if let kindOperation = spec.operation, fields["operation"] != nil, operation != kindOperation {
            report("\(label): `operation` is \(kindOperation.name) for this \(kind.key) request; leave it out",
                   at: fields.keyPosition("operation") ?? fields.position)
            return nil
        }
        return ManifestJob(name: name, operation: spec.operation ?? .install, stopOnFailure: stopOnFailure, updates: [], line: fields.position.line,
                           kind: spec)
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

    private mutating func settings(from fields: YAMLFields) -> UpdateSettings {
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
    mutating func checkProgram(_ program: String, at position: SourcePosition, workingDirectory: String, environment: [String: String]) {
        switch ProgramCheck.finding(for: program, workingDirectory: workingDirectory, environment: environment) {
        case .unusable(let message)?:
            report(message, at: position)
        case .notOnPath?:
            warnings.append(ManifestError(
                file: file, line: position.line, column: position.column,
                message: "warning: `\(program)` is not an executable on PATH now; the update fails unless it is there when it runs"))
        case nil:
            break
        }
    }
}
