/// A node's tag: the name written (or resolved) and the resolver that resolves an implicit one.
///
/// Two tags are equal when their names are, whatever their resolvers.
public struct Tag: Sendable, Hashable, CustomStringConvertible {
    /// The tag's name: `Name.implicit` when none was written and it is not resolved yet.
    public let name: Name
    /// What resolves the name of a plain scalar written without a tag.
    let resolver: Resolver

    init(_ name: Name, _ resolver: Resolver) {
        self.name = name
        self.resolver = resolver
    }

    /// The name's text, such as `tag:yaml.org,2002:int`, or empty for an implicit tag.
    public var rawValue: String { name.rawValue }

    public var description: String { name.rawValue }

    public static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
