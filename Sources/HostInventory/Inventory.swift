/// An Ansible inventory as far as reaching hosts needs it: its hosts in the order they first
/// appear, its groups (`all` and `ungrouped` always there, as Ansible has them) with their
/// children, and the variables of groups and hosts.
public struct Inventory: Sendable, Hashable {
    /// Every host, in the order the inventory first names it.
    public private(set) var hostNames: [String] = []
    /// Host variables (inline in INI, `hosts: {h: {…}}` in YAML): every value as text.
    public private(set) var hostVariables: [String: [String: String]] = [:]
    /// Every group by name, `all` and `ungrouped` included.
    public private(set) var groups: [String: InventoryGroup] = ["all": InventoryGroup(name: "all"), "ungrouped": InventoryGroup(name: "ungrouped")]

    public init() {}

    /// Reads the inventory in `text`: YAML when `path` ends in `.yml`, `.yaml` or `.json` or
    /// the text reads as a YAML mapping of groups, INI otherwise (Ansible tries its plugins so).
    /// - Throws: `InventoryError` with the file and line of what cannot be read.
    public static func parse(_ text: String, path: String) throws(InventoryError) -> Inventory {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".yml") || lowered.hasSuffix(".yaml") || lowered.hasSuffix(".json") {
            return try YAMLInventoryParser.parse(text, path: path)
        }
        if YAMLInventoryParser.looksLikeYAML(text), let inventory = try? YAMLInventoryParser.parse(text, path: path) {
            return inventory
        }
        return try INIInventoryParser.parse(text, path: path)
    }

    // MARK: - Building

    /// Adds `host` (once) with `variables` (later values replace earlier ones), to `group` when given.
    mutating func add(host: String, variables: [String: String] = [:], to group: String?) {
        if hostVariables[host] == nil {
            hostNames.append(host)
            hostVariables[host] = [:]
        }
        hostVariables[host]!.merge(variables) { _, new in new }
        if let group {
            addGroup(group)
            if !groups[group]!.hosts.contains(host) { groups[group]!.hosts.append(host) }
        }
    }

    /// Makes sure `group` exists.
    mutating func addGroup(_ group: String) {
        if groups[group] == nil { groups[group] = InventoryGroup(name: group) }
    }

    /// Makes `child` a child group of `parent` (both made when missing).
    mutating func add(child: String, to parent: String) {
        addGroup(parent)
        addGroup(child)
        if !groups[parent]!.children.contains(child) { groups[parent]!.children.append(child) }
    }

    /// Sets variables of `group` (made when missing).
    mutating func set(variables: [String: String], of group: String) {
        addGroup(group)
        groups[group]!.variables.merge(variables) { _, new in new }
    }

    // MARK: - Reading

    /// The hosts of `group`, its children's included, in inventory order; every host for `all`;
    /// for `ungrouped`, the hosts that are in no group but `all` and `ungrouped`. Empty for a
    /// group the inventory does not have.
    public func hosts(of group: String) -> [String] {
        if group == "all" { return hostNames }
        if group == "ungrouped" {
            let grouped = Set(groups.values.filter { $0.name != "all" && $0.name != "ungrouped" }.flatMap { hosts(of: $0.name) })
            return hostNames.filter { !grouped.contains($0) }
        }
        var members = Set<String>()
        var seen = Set<String>()
        var pending = [group]
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let found = groups[name] else { continue }
            members.formUnion(found.hosts)
            pending += found.children
        }
        return hostNames.filter { members.contains($0) }
    }

    /// The groups `host` belongs to, directly or through a child group, `all` included.
    public func groups(of host: String) -> [String] {
        groups.keys.filter { $0 == "all" || hosts(of: $0).contains(host) }
    }

    /// The variables in force for `host`: `all`'s, then its groups' from the shallowest to the
    /// deepest (a child group's value replaces its parent's; groups of equal depth by name, as
    /// Ansible orders them), then the host's own.
    public func variables(of host: String) -> [String: String] {
        var depths: [String: Int] = ["all": 0]
        // The depth of a group is one more than its deepest parent's: walk down from `all`
        // (whose children are the groups no other group names) until nothing changes.
        var parents: [String: [String]] = [:]
        for group in groups.values { for child in group.children { parents[child, default: []].append(group.name) } }
        func depth(_ name: String, visiting: Set<String> = []) -> Int {
            if let known = depths[name] { return known }
            guard !visiting.contains(name) else { return 1 }
            let value = (parents[name] ?? []).filter { $0 != "all" }.map { depth($0, visiting: visiting.union([name])) + 1 }.max() ?? 1
            depths[name] = value
            return value
        }
        let ordered = groups(of: host).filter { $0 != "all" }.map { ($0, depth($0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        var result = groups["all"]?.variables ?? [:]
        for (name, _) in ordered { result.merge(groups[name]?.variables ?? [:]) { _, new in new } }
        result.merge(hostVariables[host] ?? [:]) { _, new in new }
        return result
    }
}
