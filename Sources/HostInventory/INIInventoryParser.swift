import TextBasics
/// Ansible's INI inventories: hosts before any section are ungrouped; `[group]` lists hosts
/// (`name key=value …`, `name:port`, ranges such as `web[1:3]`), `[group:vars]` its variables,
/// `[group:children]` its child groups. Lines starting with `#` or `;` are comments.
enum INIInventoryParser {
    private enum Section {
        case hosts(String?)
        case variables(String)
        case children(String)
    }

    static func parse(_ text: String, path: String) throws(InventoryError) -> Inventory {
        var inventory = Inventory()
        var section = Section.hosts(nil)
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingWhitespace
            guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix(";") else { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw InventoryError(source: path, line: number, message: "a section header ends with ]") }
                let header = line.dropFirst().dropLast()
                let parts = header.split(separator: ":", maxSplits: 1).map(String.init)
                guard let name = parts.first, !name.isEmpty, !name.contains(where: \.isWhitespace) else {
                    throw InventoryError(source: path, line: number, message: "a group's name is one word: [\(header)]")
                }
                switch parts.count == 2 ? parts[1] : nil {
                case nil: section = .hosts(name)
                case "vars": section = .variables(name)
                case "children": section = .children(name)
                case let other?:
                    throw InventoryError(source: path, line: number, message: "[\(header)]: a section is [group], [group:vars] or [group:children], not :\(other)")
                }
                inventory.addGroup(name)
                continue
            }
            let words: [String]
            do {
                words = try ShellWords.split(line)
            } catch {
                throw InventoryError(source: path, line: number, message: error.text)
            }
            guard let first = words.first else { continue }
            switch section {
            case .hosts(let group):
                var variables: [String: String] = [:]
                for word in words.dropFirst() {
                    guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                        throw InventoryError(source: path, line: number, message: "\(word): host variables are written key=value")
                    }
                    variables[String(word[..<equals])] = String(word[word.index(after: equals)...])
                }
                var name = first
                // `host:port`, unless the name is an IPv6 address (more than one colon); the
                // colons of a range (`web[1:3]`) are not counted.
                let outsideRanges = Self.removingRanges(from: name)
                if outsideRanges.filter({ $0 == ":" }).count == 1, let colon = name.lastIndex(of: ":"),
                   !name[colon...].contains("]") {
                    let port = String(name[name.index(after: colon)...])
                    guard !port.isEmpty, port.allSatisfy(\.isNumber) else {
                        throw InventoryError(source: path, line: number, message: "\(first): the port after : is a number")
                    }
                    variables["ansible_port"] = port
                    name = String(name[..<colon])
                }
                let names: [String]
                do {
                    names = try HostRange.expand(name)
                } catch {
                    throw InventoryError(source: path, line: number, message: error.text)
                }
                for host in names { inventory.add(host: host, variables: variables, to: group) }
            case .variables(let group):
                guard let equals = line.firstIndex(of: "="), equals != line.startIndex else {
                    throw InventoryError(source: path, line: number, message: "\(line): group variables are written key=value")
                }
                var value = line[line.index(after: equals)...].trimmingWhitespace
                // A quoted value is its text (Ansible evaluates it as a Python literal).
                if value.count >= 2, let quote = value.first, quote == "'" || quote == "\"", value.last == quote {
                    value = String(value.dropFirst().dropLast())
                }
                inventory.set(variables: [line[..<equals].trimmingWhitespace: value], of: group)
            case .children(let group):
                guard words.count == 1 else {
                    throw InventoryError(source: path, line: number, message: "\(line): a [\(group):children] line names one group")
                }
                inventory.add(child: first, to: group)
            }
        }
        return inventory
    }

    /// `name` without its ranges (`web[1:3]` → `web`): each `[` up to the next `]`. A `[` with
    /// no `]` after it stays, with the rest.
    private static func removingRanges(from name: String) -> String {
        var kept = ""
        var rest = name[...]
        while let open = rest.firstIndex(of: "[") {
            guard let close = rest[open...].firstIndex(of: "]") else { break }
            kept += rest[..<open]
            rest = rest[rest.index(after: close)...]
        }
        return kept + rest
    }
}
