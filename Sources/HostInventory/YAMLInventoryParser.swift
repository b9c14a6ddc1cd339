import YAMLNodes
import TextBasics

/// Ansible's YAML (and JSON) inventories: a mapping of groups (usually just `all`), each with
/// `hosts` (names, ranges such as `web[1:3]`, each with its variables or nothing), `vars` and
/// `children` (groups written the same way).
enum YAMLInventoryParser {
    /// Whether `text` starts like a YAML inventory: its first line that is not a comment is a
    /// mapping key (`all:`), never an INI section or host line.
    static func looksLikeYAML(_ text: String) -> Bool {
        guard let first = text.split(separator: "\n").map({ $0.trimmingWhitespace }).first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else {
            return false
        }
        return first.hasSuffix(":") || first.hasPrefix("{") || first.hasPrefix("---")
    }

    static func parse(_ text: String, path: String) throws(InventoryError) -> Inventory {
        let root: Node?
        do {
            root = try YAMLNodes.compose(yaml: text)
        } catch {
            throw InventoryError(source: path, message: "not YAML: \(error)")
        }
        var inventory = Inventory()
        guard let root else { return inventory }
        guard let groups = root.mapping else { throw InventoryError(source: path, line: root.mark?.line, message: "an inventory is a mapping of groups") }
        for (key, body) in groups {
            try read(group: try name(key, path: path), body: body, into: &inventory, path: path)
        }
        return inventory
    }

    private static func read(group: String, body: Node, into inventory: inout Inventory, path: String) throws(InventoryError) {
        inventory.addGroup(group)
        if isEmpty(body) { return }
        guard let sections = body.mapping else {
            throw InventoryError(source: path, line: body.mark?.line, message: "group \(group): expected hosts, vars or children")
        }
        for (key, value) in sections {
            switch try name(key, path: path) {
            case "hosts":
                guard !isEmpty(value) else { continue }
                guard let hosts = value.mapping else {
                    throw InventoryError(source: path, line: value.mark?.line, message: "group \(group): hosts is a mapping of host names")
                }
                for (hostKey, variables) in hosts {
                    let pattern = try name(hostKey, path: path)
                    let names: [String]
                    do {
                        names = try HostRange.expand(pattern)
                    } catch {
                        throw InventoryError(source: path, line: hostKey.mark?.line, message: error.text)
                    }
                    let values = try self.variables(variables, path: path, of: "host \(pattern)")
                    for host in names { inventory.add(host: host, variables: values, to: group == "all" ? nil : group) }
                }
            case "vars":
                inventory.set(variables: try variables(value, path: path, of: "group \(group)"), of: group)
            case "children":
                guard !isEmpty(value) else { continue }
                guard let children = value.mapping else {
                    throw InventoryError(source: path, line: value.mark?.line, message: "group \(group): children is a mapping of groups")
                }
                for (childKey, childBody) in children {
                    let child = try name(childKey, path: path)
                    if group != "all" { inventory.add(child: child, to: group) }
                    try read(group: child, body: childBody, into: &inventory, path: path)
                }
            case let other:
                throw InventoryError(source: path, line: key.mark?.line, message: "group \(group): \(other) is not one of hosts, vars, children")
            }
        }
    }

    /// The scalar values of a mapping of variables as text; values that are lists or mappings
    /// are left out (nothing that reaching a host needs is one).
    private static func variables(_ node: Node, path: String, of owner: String) throws(InventoryError) -> [String: String] {
        if isEmpty(node) { return [:] }
        guard let mapping = node.mapping else {
            throw InventoryError(source: path, line: node.mark?.line, message: "\(owner): variables are a mapping")
        }
        var result: [String: String] = [:]
        for (key, value) in mapping {
            if let scalar = value.scalar { result[try name(key, path: path)] = scalar.string }
        }
        return result
    }

    /// `null`, `~` or nothing: a key with no value (`web1:`).
    private static func isEmpty(_ node: Node) -> Bool {
        guard let scalar = node.scalar else { return false }
        return scalar.tag.rawValue == Tag.Name.null.rawValue
            || scalar.string.isEmpty || (scalar.style == .plain && ["~", "null", "Null", "NULL"].contains(scalar.string))
    }

    private static func name(_ node: Node, path: String) throws(InventoryError) -> String {
        guard let scalar = node.scalar else { throw InventoryError(source: path, line: node.mark?.line, message: "a name must be plain text") }
        return scalar.string
    }
}
