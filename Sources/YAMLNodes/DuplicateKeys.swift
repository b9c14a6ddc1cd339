/// Yams' check that no key is written twice in one mapping: keys are the same when they are
/// equal nodes (same text and resolved tag, see `Node`).
enum DuplicateKeys {
    /// - Throws: `YamlError.duplicatedKeysInMapping` with the repeated keys' texts, scalars by
    ///   their text and then the others (`<uncovertable>`, Yams' spelling) in document order,
    ///   and the mark of the first of them where it is first written.
    static func check(_ keys: [Node], yaml: String) throws(YamlError) {
        guard keys.count > 1 else { return }
        var firstIndex: [Node: Int] = [:]
        var repeated: Set<Int> = []
        for (index, key) in keys.enumerated() {
            if let first = firstIndex[key] {
                repeated.insert(first)
            } else {
                firstIndex[key] = index
            }
        }
        guard !repeated.isEmpty else { return }
        // Yams sorts scalars by text and leaves other keys unordered; document order settles
        // the rest, so the message never depends on hashing.
        let ordered = repeated.sorted { lhs, rhs in
            switch (keys[lhs].scalar?.string, keys[rhs].scalar?.string) {
            case let (left?, right?) where left != right: left < right
            case (.some, nil): true
            case (nil, .some): false
            default: lhs < rhs
            }
        }
        let first = keys[ordered[0]]
        throw .duplicatedKeysInMapping(
            duplicates: ordered.map { keys[$0].string ?? "<uncovertable>" },
            context: YamlError.Context(text: yaml, mark: first.mark ?? Mark(line: 0, column: 0)))
    }
}
