import YAMLNodes

/// The known keys of one mapping of a policy, with the nodes of their keys and values.
struct PolicyFields {
    /// Where the mapping starts: the place to report a missing key.
    let mark: Mark
    private var entries: [String: (key: Node, value: Node)] = [:]

    init(mark: Mark) {
        self.mark = mark
    }

    mutating func add(_ name: String, key: Node, value: Node) {
        entries[name] = (key, value)
    }

    /// The value of `name`, or `nil` when the key is absent.
    subscript(name: String) -> Node? { entries[name]?.value }

    /// Where the key `name` is written, or the mapping's start when it is absent.
    func keyMark(_ name: String) -> Mark { entries[name]?.key.mark ?? mark }
}
