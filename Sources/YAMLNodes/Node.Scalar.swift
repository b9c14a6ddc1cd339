extension Node {
    /// A scalar: its text exactly as the document gives it (quotes and escapes undone, block
    /// scalars folded), its tag as written, its style and where it starts.
    public struct Scalar: Sendable, Hashable {
        /// How a scalar is written; the raw values are libyaml's `yaml_scalar_style_t`.
        public enum Style: UInt32, Sendable {
            /// Not known: a scalar built in code.
            case any = 0
            case plain
            case singleQuoted
            case doubleQuoted
            /// `|`
            case literal
            /// `>`
            case folded
        }

        /// The text: quotes and escapes undone, lines folded as the style says; empty for a
        /// key or value written as nothing (`key:`).
        public let string: String
        /// The tag as parsed, not resolved: `Tag.Name.implicit` for a plain scalar written
        /// without a tag, `str` for a quoted or block one without a tag, else the tag written
        /// (`!!int` as `tag:yaml.org,2002:int`, `!` as `Tag.Name.nonSpecific`).
        public let tag: Tag
        public let style: Style
        /// Where the scalar starts (at its anchor or tag when one is written); `nil` only for
        /// scalars built in code.
        public let mark: Mark?

        init(_ string: String, _ tag: Tag, _ style: Style, _ mark: Mark?) {
            self.string = string
            self.tag = tag
            self.style = style
            self.mark = mark
        }

        /// `tag` with an implicit name resolved from the text and `!` read as `str`.
        var resolvedTag: Tag {
            switch tag.name {
            case .implicit: Tag(tag.resolver.resolveTag(from: string), tag.resolver)
            case .nonSpecific: Tag(.str, tag.resolver)
            default: tag
            }
        }

        public static func == (lhs: Scalar, rhs: Scalar) -> Bool {
            lhs.string == rhs.string && lhs.resolvedTag == rhs.resolvedTag
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(string)
            hasher.combine(resolvedTag)
        }
    }
}
