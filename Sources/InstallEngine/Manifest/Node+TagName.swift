import YAMLNodes

extension Node {
    /// The node's resolved tag (`str`, `int`, `bool`, `null`, `merge`…): what YAML made of a
    /// plain scalar such as `no` or `30`. Quoted scalars are always `str`.
    ///
    /// Manifests are composed with `Resolver.basic`, which resolves nothing, so a plain scalar
    /// written without a tag is resolved here by `Resolver.default`'s rules.
    public var tagName: Tag.Name {
        guard case .scalar(let scalar) = self else { return Tag.Name(rawValue: tag.rawValue) }
        // The tag as parsed, empty when none was written: `Node.tag` would resolve it with
        // the parser's resolver first.
        switch scalar.tag.rawValue {
        case Tag.Name.implicit.rawValue: return Resolver.default.resolveTag(from: scalar.string)
        case Tag.Name.nonSpecific.rawValue: return .str
        case let written: return Tag.Name(rawValue: written)
        }
    }

    /// `tagName` for a mapping's key. The composer has resolved every key's tag already, while checking
    /// for duplicate keys, so a plain key reads as `str` here whether or not `!!str` was
    /// written: it is resolved by its text again (`<<` is a merge key even as `!!str <<`).
    public var keyTagName: Tag.Name {
        guard case .scalar(let scalar) = self, scalar.style == .plain, scalar.tag.rawValue == Tag.Name.str.rawValue else { return tagName }
        return Resolver.default.resolveTag(from: scalar.string)
    }
}
