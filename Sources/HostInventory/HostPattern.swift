import TextBasics
/// Ansible's host patterns, as `--limit` takes them: terms separated by `:` (or `,`), each a
/// host or group name, `all` or `*`, or a wildcard (`web*`, `db?.example.com`) matching group
/// and host names; `&term` keeps only hosts also in the term, `!term` removes the term's hosts.
/// As in Ansible, the plain terms are taken first, then the `&` ones, then the `!` ones,
/// whatever their order in the pattern.
public enum HostPattern {
    /// The hosts of `inventory` that `pattern` selects, in inventory order.
    /// - Throws: `InventoryError` (source `--limit`) for an empty term or a regular
    ///   expression (`~…`), which this reader does not take.
    public static func select(_ pattern: String, from inventory: Inventory) throws(InventoryError) -> [String] {
        let terms = pattern.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "," }).map { $0.trimmingWhitespace }
        guard !terms.isEmpty, !terms.contains(where: \.isEmpty) else {
            throw InventoryError(source: "--limit", message: "\(pattern): an empty term")
        }
        var plain: [String] = []
        var intersections: [String] = []
        var exclusions: [String] = []
        for term in terms {
            if term.hasPrefix("!") {
                exclusions.append(String(term.dropFirst()))
            } else if term.hasPrefix("&") {
                intersections.append(String(term.dropFirst()))
            } else {
                plain.append(term)
            }
        }
        // `!web` alone means every host but web's, as in Ansible.
        if plain.isEmpty { plain = ["all"] }
        var selected = Set<String>()
        for term in plain { selected.formUnion(try hosts(matching: term, in: inventory)) }
        for term in intersections { selected.formIntersection(try hosts(matching: term, in: inventory)) }
        for term in exclusions { selected.subtract(try hosts(matching: term, in: inventory)) }
        return inventory.hostNames.filter { selected.contains($0) }
    }

    /// The hosts one term stands for: the groups it names or matches, and the hosts it names or
    /// matches (hosts are looked at when no group matched or the term is a wildcard).
    private static func hosts(matching term: String, in inventory: Inventory) throws(InventoryError) -> Set<String> {
        guard !term.isEmpty else { throw InventoryError(source: "--limit", message: "an empty term after & or !") }
        guard !term.hasPrefix("~") else {
            throw InventoryError(source: "--limit", message: "\(term): regular expressions are not taken; use names, groups and * wildcards")
        }
        if term == "all" || term == "*" { return Set(inventory.hostNames) }
        let isWildcard = term.contains("*") || term.contains("?")
        var result = Set<String>()
        var matchedGroup = false
        for group in inventory.groups.keys where isWildcard ? Wildcard.matches(term, group) : group == term {
            matchedGroup = true
            result.formUnion(inventory.hosts(of: group))
        }
        if !matchedGroup || isWildcard {
            result.formUnion(inventory.hostNames.filter { isWildcard ? Wildcard.matches(term, $0) : $0 == term })
        }
        return result
    }
}
