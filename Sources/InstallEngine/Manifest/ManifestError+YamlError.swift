import YAMLNodes

extension ManifestError {
    // MARK: - YAML syntax errors

    /// The problem libyaml (or the composer) found, at the position it reports, as
    /// `invalid YAML: [CONTEXT at line L, column C, ]PROBLEM`.
    public init(_ error: YamlError, file: String) {
        switch error {
        case .scanner(_, _, let mark, let yaml) where Self.character(atLine: mark.line, column: mark.column, in: yaml) == "\t":
            // libyaml says "found character that cannot start any token"; the character is a tab.
            self.init(file: file, line: mark.line, column: mark.column,
                      message: "a tab cannot indent YAML; indent with spaces")
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            // libyaml's context and problem read as one sentence in this order: "while scanning
            // a quoted scalar at line 2, column 11, found unexpected end of stream".
            var message = "invalid YAML: \(problem)"
            if let context {
                message = "invalid YAML: \(context.text) at line \(context.mark.line), column \(context.mark.column), \(problem)"
            }
            self.init(file: file, line: mark.line, column: mark.column, message: message)
        case .reader(let problem, let offset, _, let yaml):
            let position = offset.map { Self.position(ofCharacterOffset: $0, in: yaml) } ?? .start
            self.init(file: file, line: position.line, column: position.column, message: "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            // The composer marks the first occurrence only, so the message says "more than once"
            // rather than pointing at a particular repeat.
            let message = duplicates.count == 1
                ? "key \(keys) appears more than once in this mapping"
                : "keys \(keys) appear more than once in this mapping"
            self.init(file: file, line: context.mark.line, column: context.mark.column, message: message)
        default:
            self.init(file: file, line: 1, column: 1, message: "invalid YAML: \(error)")
        }
    }

    /// The character at a 1-based line and column (in Unicode scalars, like libyaml's marks).
    private static func character(atLine line: Int, column: Int, in text: String) -> Unicode.Scalar? {
        var position = SourcePosition.start
        for scalar in text.unicodeScalars {
            if position.line == line, position.column == column { return scalar }
            if position.line > line { return nil }
            position.advance(past: scalar)
        }
        return nil
    }

    /// Line and column (in Unicode scalars, like libyaml's marks) of the character at `offset`.
    private static func position(ofCharacterOffset offset: Int, in text: String) -> SourcePosition {
        let end = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) ?? text.endIndex
        var position = SourcePosition.start
        for scalar in text[..<end].unicodeScalars {
            position.advance(past: scalar)
        }
        return position
    }
}
