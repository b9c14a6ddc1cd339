#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HostInventory
import InstallEngine
import TextBasics
import YAMLNodes

/// Walks a composed policy and turns it into a `PatchPolicy`, collecting every problem with its
/// line and column instead of stopping at the first; a node of the wrong shape is reported once
/// and not looked into. The checks that need the inventory (groups and canaries it must have)
/// are made here too, at the place the policy names them.
struct PolicyReader: YAMLDocumentReader {
    typealias Section = PolicySection

    /// The policy's path as given, for messages.
    let file: String
    /// The policy's folder (empty for the current one): the base of a relative inventory path.
    let folder: String
    /// The zone of a name, `nil` for a name that is no zone.
    let zones: (String) -> ZoneRules?
    private(set) var errors: [ManifestError] = []
    /// What may still work when the night runs (a program not on `PATH` now).
    private(set) var warnings: [ManifestError] = []

    init(file: String, zones: @escaping (String) -> ZoneRules?) {
        self.file = file
        self.zones = zones
        folder = PathText.parent(of: file)
    }

    mutating func report(_ message: String, at position: SourcePosition) {
        errors.append(ManifestError(file: file, line: position.line, column: position.column, message: message))
    }

    // MARK: - The policy

    /// The policy of the document `root` (`nil` for an empty file); `nil` when anything was reported.
    mutating func read(_ root: Node?) -> PatchPolicy? {
        guard let root, !isNull(root) else {
            report("the policy is empty; it needs `hosts`, `time_zone`, `windows` and `gate`", at: .start)
            return nil
        }
        guard let top = fields(of: root, in: .topLevel) else { return nil }
        let hosts = required("hosts", in: top, section: .topLevel, orNull: true).flatMap { self.hosts($0) }
        let zone = required("time_zone", in: top, section: .topLevel, orNull: true).flatMap { self.zone($0) }
        let windows = required("windows", in: top, section: .topLevel, orNull: true).flatMap { self.windows($0) }
        let blackouts = top["blackouts"].map { self.blackouts($0) } ?? []
        let waves = top["waves"].map { self.waves($0, hosts: hosts) } ?? WavePlan(canaries: [], percent: nil)
        let gate = required("gate", in: top, section: .topLevel, orNull: true).flatMap { self.gate($0) }
        let budget = top["failure_budget"].map { self.failureBudget($0) } ?? .hosts(0)
        let age = top["age"].map { self.age($0) } ?? AgeGate()
        let packages = top["packages"].map { self.packages($0) } ?? .security
        let hostCommands = top["commands"].map { self.hostCommands($0) } ?? HostCommands()
        let reboot = top["reboot"].map { self.reboot($0) } ?? RebootSettings()
        let notify = top["notify"].flatMap { isNull($0) ? nil : checkedCommand($0) }
        guard errors.isEmpty, let hosts, let zone, let windows, let waves, let gate, let budget, let age, let packages,
              let hostCommands, let reboot else { return nil }
        var policy = PatchPolicy(path: file, hosts: hosts, zone: zone, windows: windows, blackouts: blackouts ?? [], waves: waves, gate: gate,
                                 failureBudget: budget, age: age, packages: packages, hostCommands: hostCommands, reboot: reboot, notify: notify)
        policy.warnings = warnings
        return policy
    }

    // MARK: - Commands

    /// A command run on this machine, its program checked as manifests' are (`ProgramCheck`):
    /// a path relative to the policy's folder must be an executable file; a name not on `PATH`
    /// now is a warning. Shell strings are the shell's business.
    private mutating func checkedCommand(_ node: Node) -> UpdateCommand? {
        guard let command = command(node) else { return nil }
        if case .argv(let arguments) = command {
            let position = SourcePosition(node.sequence?.first ?? node)
            switch ProgramCheck.finding(for: arguments[0], workingDirectory: folder.isEmpty ? "." : folder) {
            case .unusable(let message)?:
                report(message, at: position)
            case .notOnPath?:
                warnings.append(ManifestError(file: file, line: position.line, column: position.column,
                                              message: "warning: `\(arguments[0])` is not an executable on PATH now; the command fails unless it is there when the night runs"))
            case nil:
                break
            }
        }
        return command
    }

    // MARK: - Hosts

    private mutating func hosts(_ node: Node) -> PolicyHosts? {
        guard let fields = fields(of: node, in: .hosts) else { return nil }
        let groups = fields["groups"].flatMap { stringList($0, nonEmpty: true, noun: "names") } ?? []
        guard let inventoryNode = required("inventory", in: fields, section: .hosts, orNull: true), let inventory = nonEmptyString(inventoryNode) else { return nil }
        let expanded = PathText.expandingTilde(inventory)
        let path = expanded.hasPrefix("/") ? expanded : PathText.appending(expanded, to: folder)
        guard let data = FileManager.default.contents(atPath: path) else {
            report("cannot read the inventory `\(path)`: \(FileKind.of(path) == nil ? "no such file" : "not a readable file")", at: inventoryNode)
            return nil
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            report("the inventory `\(path)` is not UTF-8 text", at: inventoryNode)
            return nil
        }
        let parsed: Inventory
        do {
            parsed = try Inventory.parse(text, path: path)
        } catch {
            report("the inventory cannot be read: \(error)", at: inventoryNode)
            return nil
        }
        let names: [String]
        if groups.isEmpty {
            names = parsed.hostNames
        } else {
            var selected = Set<String>()
            var unknownGroup = false
            for (index, group) in groups.enumerated() {
                guard parsed.groups[group] != nil else {
                    unknownGroup = true
                    let groupNode = fields["groups"]?.sequence.map { Array($0)[index] }
                    var message = "the inventory `\(inventory)` has no group `\(group)`"
                    if let suggestion = EditDistance.closest(to: group, among: parsed.groups.keys.sorted()) {
                        message += "; did you mean `\(suggestion)`?"
                    }
                    report(message, at: groupNode.map(SourcePosition.init) ?? fields.position)
                    continue
                }
                selected.formUnion(parsed.hosts(of: group))
            }
            // Without all its groups the policy has no hosts to check canaries against.
            guard !unknownGroup else { return nil }
            names = parsed.hostNames.filter { selected.contains($0) }
        }
        guard !names.isEmpty else {
            report(groups.isEmpty ? "the inventory `\(inventory)` names no host" : "the groups select no host of `\(inventory)`",
                   at: fields["groups"] ?? inventoryNode)
            return nil
        }
        return PolicyHosts(inventory: inventory, inventoryPath: path, groups: groups, names: names)
    }

    // MARK: - Time

    private mutating func zone(_ node: Node) -> ZoneRules? {
        guard let name = nonEmptyString(node) else { return nil }
        guard let rules = zones(name) else {
            report("unknown time zone `\(name)`; expected an IANA name such as Europe/Berlin or UTC (the system's zoneinfo)", at: node)
            return nil
        }
        return rules
    }

    private mutating func windows(_ node: Node) -> [PatchWindow]? {
        guard case .sequence(let sequence) = node, !sequence.isEmpty else {
            report("expected a list of windows; got \(describe(node))", at: node)
            return nil
        }
        var windows: [PatchWindow] = []
        for item in sequence {
            guard let fields = fields(of: item, in: .window) else { continue }
            let days = required("days", in: fields, section: .window, orNull: true).flatMap { self.days($0) }
            let start = required("start", in: fields, section: .window, orNull: true).flatMap { self.clockTime($0) }
            var duration: Int?
            if let durationNode = required("duration", in: fields, section: .window, orNull: true), let seconds = self.duration(durationNode) {
                if seconds <= 0 || seconds > 7 * 86_400 {
                    report("expected a window of more than 0 and at most 7d; got \(describe(durationNode))", at: durationNode)
                } else {
                    duration = seconds
                }
            }
            if let days, let start, let duration { windows.append(PatchWindow(days: days, startMinute: start, duration: duration)) }
        }
        return windows.count == sequence.count ? windows : nil
    }

    /// A list of day names, or `daily` (alone, or in the list as `[daily]`, which users write
    /// after the guide's `[tue, thu]`).
    private mutating func days(_ node: Node) -> Set<Weekday>? {
        if let text = node.scalar?.string, text == "daily" { return Set(Weekday.allCases) }
        let expectation = "expected a list of days (mon, tue … or monday, tuesday …) or daily"
        guard case .sequence(let sequence) = node, !sequence.isEmpty else {
            report("\(expectation); got \(describe(node))", at: node)
            return nil
        }
        var days = Set<Weekday>()
        var complete = true
        for item in sequence {
            if item.scalar?.string == "daily" {
                days.formUnion(Weekday.allCases)
                continue
            }
            guard let text = item.scalar?.string, let day = Weekday(name: text) else {
                report("\(expectation); got \(describe(item))", at: item)
                complete = false
                continue
            }
            days.insert(day)
        }
        return complete ? days : nil
    }

    /// `HH:MM` on a 24-hour clock, in minutes after midnight.
    private mutating func clockTime(_ node: Node) -> Int? {
        if let text = node.scalar?.string {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
               parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
               let hours = Int(parts[0]), let minutes = Int(parts[1]), hours < 24, minutes < 60 {
                return hours * 60 + minutes
            }
        }
        // Quoting is what the guide asks for here, so a quoted text is not called out as one.
        let got = node.scalar.map { "`\($0.string)`" } ?? describe(node)
        report("expected a time of day as HH:MM (24-hour clock, such as \"02:30\"); got \(got)", at: node)
        return nil
    }

    private mutating func blackouts(_ node: Node) -> [BlackoutPeriod]? {
        guard case .sequence(let sequence) = node else {
            report("expected a list of dates (YYYY-MM-DD) or ranges (YYYY-MM-DD..YYYY-MM-DD); got \(describe(node))", at: node)
            return nil
        }
        var periods: [BlackoutPeriod] = []
        for item in sequence {
            let text = item.scalar?.string ?? ""
            let ends = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
            let bounds: (CivilDate, CivilDate)?
            if ends.count == 3, ends[1].isEmpty, let first = CivilDate(text: String(ends[0])), let last = CivilDate(text: String(ends[2])) {
                bounds = (first, last)
            } else if let date = CivilDate(text: text) {
                bounds = (date, date)
            } else {
                bounds = nil
            }
            guard let (first, last) = bounds, first <= last else {
                report("expected a date (YYYY-MM-DD) or a range of dates (YYYY-MM-DD..YYYY-MM-DD, the first not after the last); got \(describe(item))",
                       at: item)
                continue
            }
            periods.append(BlackoutPeriod(first: first, last: last))
        }
        return periods
    }

    // MARK: - Waves, gate, budget

    private mutating func waves(_ node: Node, hosts: PolicyHosts?) -> WavePlan? {
        guard let fields = fields(of: node, in: .waves) else { return nil }
        var canaries: [String] = []
        if let canaryNode = fields["canary"], let names = stringList(canaryNode, nonEmpty: true, noun: "names") {
            canaries = names
            let items = canaryNode.sequence.map(Array.init) ?? []
            var seen = Set<String>()
            for (index, name) in names.enumerated() {
                if !seen.insert(name).inserted {
                    report("canary `\(name)` is named twice", at: items[index])
                } else if let hosts, !hosts.names.contains(name) {
                    var message = "canary `\(name)` is not one of the policy's hosts"
                    if let suggestion = EditDistance.closest(to: name, among: hosts.names) { message += "; did you mean `\(suggestion)`?" }
                    report(message, at: items[index])
                }
            }
        }
        let percent = fields["percent"].flatMap { integer($0, in: 1...100, what: "a percentage") }
        let atOnce = fields["at_once"].flatMap { integer($0, in: 1...1000, what: "a number of hosts") } ?? 1
        if fields["percent"] != nil, percent == nil { return nil }
        return WavePlan(canaries: canaries, percent: percent, atOnce: atOnce)
    }

    private mutating func gate(_ node: Node) -> WaveGate? {
        guard let fields = fields(of: node, in: .gate) else { return nil }
        var confirm: Int?
        if let confirmNode = required("confirm", in: fields, section: .gate, orNull: true), let seconds = duration(confirmNode) {
            if seconds > 0 { confirm = seconds } else { report("expected a confirmation deadline longer than 0; got \(describe(confirmNode))", at: confirmNode) }
        }
        let command = fields["command"].flatMap { isNull($0) ? nil : self.checkedCommand($0) }
        if let commandNode = fields["command"], !isNull(commandNode), command == nil { return nil }
        return confirm.map { WaveGate(confirm: $0, command: command) }
    }

    /// A number of hosts, or `N%` of them.
    private mutating func failureBudget(_ node: Node) -> FailureBudget? {
        if node.tagName == .int, let count = node.scalar.flatMap({ Int($0.string) }), count >= 0 { return .hosts(count) }
        if let text = node.scalar?.string, text.hasSuffix("%"), let percent = Int(text.dropLast()), (0...100).contains(percent) {
            return .percent(percent)
        }
        report("expected a number of hosts (0 or more) or a percentage of them (such as 10%); got \(describe(node))", at: node)
        return nil
    }

    // MARK: - Updates

    private mutating func age(_ node: Node) -> AgeGate? {
        guard let fields = fields(of: node, in: .age) else { return nil }
        let updates = fields["updates"].map { duration($0) } ?? 0
        let security = fields["security"].map { duration($0) } ?? updates
        guard let updates, let security else { return nil }
        return AgeGate(updates: updates, security: security)
    }

    /// `security`, `all`, or a list of package names.
    private mutating func packages(_ node: Node) -> PackageSelection? {
        if case .sequence = node {
            return stringList(node, nonEmpty: true, noun: "names").map { .list($0) }
        }
        switch node.scalar?.string {
        case "security": return .security
        case "all": return .all
        default:
            report("expected security, all or a list of package names; got \(describe(node))", at: node)
            return nil
        }
    }

    private mutating func hostCommands(_ node: Node) -> HostCommands? {
        guard let fields = fields(of: node, in: .commands) else { return nil }
        let before = fields["before"].flatMap { isNull($0) ? nil : checkedCommand($0) }
        let after = fields["after"].flatMap { isNull($0) ? nil : checkedCommand($0) }
        if let node = fields["before"], !isNull(node), before == nil { return nil }
        if let node = fields["after"], !isNull(node), after == nil { return nil }
        return HostCommands(before: before, after: after)
    }

    private mutating func reboot(_ node: Node) -> RebootSettings? {
        guard let fields = fields(of: node, in: .reboot) else { return nil }
        var enabled: Bool? = true
        if let node = fields["enabled"] {
            enabled = node.tagName == .bool ? node.bool : nil
            if enabled == nil { report("expected true or false; got \(describe(node))", at: node) }
        }
        let atOnce = fields["at_once"].map { integer($0, in: 1...1000, what: "a number of hosts") } ?? 1
        var command: String? = RebootSettings.defaultCommand
        if let node = fields["command"] {
            // A command line for the host's shell over ssh, not a program on this machine: not looked up here.
            command = (node.scalar?.string).flatMap { text in text.allSatisfy(\.isWhitespace) ? nil : text }
            if command == nil { report("expected the command line that reboots a host (such as systemctl reboot); got \(describe(node))", at: node) }
        }
        var timeout: Int? = RebootSettings.defaultTimeout
        if let node = fields["timeout"], let seconds = duration(node) {
            timeout = seconds > 0 ? seconds : nil
            if timeout == nil { report("expected a time longer than 0 for a rebooted host to answer again; got \(describe(node))", at: node) }
        } else if fields["timeout"] != nil {
            timeout = nil
        }
        guard let enabled, let atOnce, let command, let timeout else { return nil }
        return RebootSettings(enabled: enabled, atOnce: atOnce, command: command, timeout: timeout)
    }
}
