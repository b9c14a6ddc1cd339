/// A node of a composed YAML document: a scalar, a mapping or a sequence, each with its tag as
/// written and where it starts. Aliases are already replaced by the node their anchor names (a
/// copy that keeps the anchored node's mark), as Yams composes them.
///
/// Two nodes are equal when they are of the same kind with equal contents and equal resolved
/// tags: `1` and `"1"` are equal under `Resolver.basic` (both `str`) and not under
/// `Resolver.default` (`int` and `str`). Marks and styles do not count.
public enum Node: Sendable, Hashable {
    /// Text: `name`, `'quoted'`, a `|` block…
    case scalar(Scalar)
    /// Key and value pairs, block (`key: value` lines) or flow (`{key: value}`).
    case mapping(Mapping)
    /// Items, block (`- item` lines) or flow (`[item]`).
    case sequence(Sequence)

    /// The tag, resolved: a plain scalar written without a tag by its resolver, `!` as `str`,
    /// `map` or `seq`, and a written tag as written.
    public var tag: Tag {
        switch self {
        case .scalar(let scalar): scalar.resolvedTag
        case .mapping(let mapping): mapping.resolvedTag
        case .sequence(let sequence): sequence.resolvedTag
        }
    }

    /// Where the node starts; `nil` only for nodes built in code.
    public var mark: Mark? {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let sequence): sequence.mark
        }
    }

    /// The scalar, or `nil` for a mapping or a sequence.
    public var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The mapping, or `nil` for a scalar or a sequence.
    public var mapping: Mapping? {
        if case .mapping(let mapping) = self { return mapping }
        return nil
    }

    /// The sequence, or `nil` for a scalar or a mapping.
    public var sequence: Sequence? {
        if case .sequence(let sequence) = self { return sequence }
        return nil
    }
}
