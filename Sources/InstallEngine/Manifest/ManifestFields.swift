import YAMLNodes

/// The known keys of one mapping of the manifest, with the nodes of their keys and values.
struct ManifestFields {
    /// Where the mapping starts: the place to report a missing key.
    let position: SourcePosition
    private var entries: [String: (key: Node, value: Node)] = [:]

    init(position: SourcePosition) {
        self.position = position
    }

    /// Later calls for the same name win (merge keys are resolved before this is called).
    mutating func add(_ name: String, key: Node, value: Node) {
        entries[name] = (key, value)
    }

    /// The value of `name`, or `nil` when the key is absent.
    subscript(name: String) -> Node? { entries[name]?.value }

    /// Where the key `name` itself is written, or `nil` when it is absent.
    func keyPosition(_ name: String) -> SourcePosition? { entries[name].map { SourcePosition($0.key) } }
}
