extension Node {
    /// A mapping: its key and value pairs in the order the document writes them (duplicate
    /// keys are refused when composing), its tag as written and where it starts.
    public struct Mapping: Sendable, Hashable, RandomAccessCollection {
        public typealias Element = (key: Node, value: Node)

        private let pairs: [Element]
        /// The tag as parsed: `Tag.Name.implicit` when none was written.
        public let tag: Tag
        /// Where the mapping starts (its first key, its `{`, or its anchor or tag);
        /// `nil` only for mappings built in code.
        public let mark: Mark?

        init(_ pairs: [Element], _ tag: Tag, _ mark: Mark?) {
            self.pairs = pairs
            self.tag = tag
            self.mark = mark
        }

        public var startIndex: Int { pairs.startIndex }
        public var endIndex: Int { pairs.endIndex }
        public subscript(position: Int) -> Element { pairs[position] }

        /// `tag`, with an implicit or `!` name read as `map`.
        var resolvedTag: Tag {
            tag.name == .implicit || tag.name == .nonSpecific ? Tag(.map, tag.resolver) : tag
        }

        public static func == (lhs: Mapping, rhs: Mapping) -> Bool {
            lhs.resolvedTag == rhs.resolvedTag && lhs.pairs.elementsEqual(rhs.pairs) { $0.key == $1.key && $0.value == $1.value }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(pairs.count)
            for pair in pairs {
                hasher.combine(pair.key)
                hasher.combine(pair.value)
            }
            hasher.combine(resolvedTag)
        }
    }
}
