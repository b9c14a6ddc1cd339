import YAMLNodes

extension Node {
    /// What the node is, for the `got …` half of a message about a manifest or a patch policy:
    /// `a list` (`an empty list`, since `expected a list of windows; got a list` would puzzle),
    /// `a mapping`, `the boolean `no``, `an empty value`, `the quoted string `3``, or
    /// the text in backticks (first line, at most 40 characters). The tag is resolved as
    /// `tagName` resolves it, whichever resolver composed the node.
    public var messageDescription: String {
        guard let scalar else {
            guard let sequence else { return "a mapping" }
            return sequence.isEmpty ? "an empty list" : "a list"
        }
        let firstLine = scalar.string.prefix { $0 != "\n" && $0 != "\r" }
        let text = firstLine.count <= 40 && firstLine.count == scalar.string.count ? scalar.string : String(firstLine.prefix(40)) + "…"
        switch tagName {
        case .null:
            return scalar.string.isEmpty ? "an empty value" : "the null value `\(text)`"
        case .bool:
            return "the boolean `\(text)`"
        default:
            if scalar.string.isEmpty { return "an empty string" }
            // `"3"` or `'no'` looks like the number or boolean that was expected; saying it
            // is quoted tells the operator what to change.
            let quoted = scalar.style == .singleQuoted || scalar.style == .doubleQuoted
            if quoted, Resolver.default.resolveTag(from: scalar.string) != .str { return "the quoted string `\(text)`" }
            return "`\(text)`"
        }
    }
}
