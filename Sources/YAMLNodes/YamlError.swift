/// Why a YAML text could not be composed: libyaml's own errors with its problem, context and
/// marks, and the composer's (an undefined alias, a second document, a key written twice).
///
/// `description` is Yams' text for the same error, byte for byte.
public enum YamlError: Error, Sendable, CustomStringConvertible {
    /// libyaml could not allocate memory.
    case memory
    /// The text is not valid UTF-8, or holds a character YAML does not allow.
    /// - `offset`: where, in `Character`s from the start of `yaml`; `nil` when libyaml's byte
    ///   offset is not on a character's boundary.
    /// - `value`: the offending byte or code point, -1 when there is none.
    case reader(problem: String, offset: Int?, value: Int32, yaml: String)
    /// libyaml's scanner (tokens: a tab that indents, an unclosed quote…).
    case scanner(context: Context?, problem: String, Mark, yaml: String)
    /// libyaml's parser (structure: a missing `-`, a bad indentation…).
    case parser(context: Context?, problem: String, Mark, yaml: String)
    /// The composer: `found undefined alias`, or a second document where one was expected.
    case composer(context: Context?, problem: String, Mark, yaml: String)
    /// Keys written more than once in one mapping, their texts sorted; `context.mark` is where
    /// the first of them is first written, and `context.text` the whole YAML text.
    case duplicatedKeysInMapping(duplicates: [String], context: Context)

    public var description: String {
        switch self {
        case .memory:
            return "Memory error"
        case let .reader(problem, offset, value, yaml):
            guard let offset, let (line, column, contents) = SourceLines(yaml).lineNumberColumnAndContents(atCharacterOffset: offset) else {
                return "\(problem) at offset: \(String(describing: offset)), value: \(value)"
            }
            let mark = Mark(line: line + 1, column: column + 1)
            return "\(mark): error: reader: \(problem):\n" + SourceLines.endingWithNewline(contents)
                + String(repeating: " ", count: column) + "^"
        case let .scanner(context, problem, mark, yaml):
            return "\(mark): error: scanner: \(context?.description ?? "")\(problem):\n" + mark.snippet(from: yaml)
        case let .parser(context, problem, mark, yaml):
            return "\(mark): error: parser: \(context?.description ?? "")\(problem):\n" + mark.snippet(from: yaml)
        case let .composer(context, problem, mark, yaml):
            return "\(mark): error: composer: \(context?.description ?? "")\(problem):\n" + mark.snippet(from: yaml)
        case let .duplicatedKeysInMapping(duplicates, context):
            let duplicateKeys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return "Parser: expected all keys to be unique but found the following duplicated key(s): \(duplicateKeys).\n"
                + "Context:\n" + context.description
        }
    }
}
