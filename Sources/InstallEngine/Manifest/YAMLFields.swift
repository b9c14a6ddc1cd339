import YAMLNodes

/// The known keys of one mapping of a manifest or a policy (`YAMLDocumentReader.fields`), with
/// the nodes of their keys and values.
public struct YAMLFields {
    /// Where the mapping starts: the place to report a missing key.
    public let position: SourcePosition
    private var entries: [String: (key: Node, value: Node)] = [:]

    public init(position: SourcePosition) {
        self.position = position
    }

    /// Later calls for the same name win (merge keys are resolved before this is called).
    public mutating func add(_ name: String, key: Node, value: Node) {
        entries[name] = (key, value)
    }

    /// The value of `name`, or `nil` when the key is absent.
    public subscript(name: String) -> Node? { entries[name]?.value }

    /// Where the key `name` itself is written, or `nil` when it is absent.
    public func keyPosition(_ name: String) -> SourcePosition? { entries[name].map { SourcePosition($0.key) } }
}
