extension Node {
    /// A sequence: its items in order, its tag as written and where it starts.
    public struct Sequence: Sendable, Hashable, RandomAccessCollection {
        private let nodes: [Node]
        /// The tag as parsed: `Tag.Name.implicit` when none was written.
        public let tag: Tag
        /// Where the sequence starts (its first `-`, its `[`, or its anchor or tag);
        /// `nil` only for sequences built in code.
        public let mark: Mark?

        init(_ nodes: [Node], _ tag: Tag, _ mark: Mark?) {
            self.nodes = nodes
            self.tag = tag
            self.mark = mark
        }

        public var startIndex: Int { nodes.startIndex }
        public var endIndex: Int { nodes.endIndex }
        public subscript(position: Int) -> Node { nodes[position] }

        /// `tag`, with an implicit or `!` name read as `seq`.
        var resolvedTag: Tag {
            tag.name == .implicit || tag.name == .nonSpecific ? Tag(.seq, tag.resolver) : tag
        }

        public static func == (lhs: Sequence, rhs: Sequence) -> Bool {
            lhs.resolvedTag == rhs.resolvedTag && lhs.nodes == rhs.nodes
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(nodes)
            hasher.combine(resolvedTag)
        }
    }
}
