/// How the tag of a plain scalar written without one is found from its text.
public enum Resolver: Sendable, Hashable {
    /// Resolves nothing: every such scalar is a `str`.
    case basic
    /// YAML 1.1's rules as Yams' `Resolver.default` has them: bool, int, float, merge, null,
    /// timestamp, value, the first that matches, else `str` (`PlainScalarTag`).
    case `default`

    /// The tag this resolver gives the plain scalar `text`.
    public func resolveTag(from text: String) -> Tag.Name {
        switch self {
        case .basic: .str
        case .default: PlainScalarTag.resolve(text)
        }
    }
}
