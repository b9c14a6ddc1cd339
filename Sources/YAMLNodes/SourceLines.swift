/// The lines of a YAML text as Foundation's `NSString` splits them (ended by `\n`, `\r`,
/// `\r\n`, U+0085, U+2028 or U+2029, the end kept with its line), for the snippets in
/// `YamlError.description` to read exactly as Yams' do.
struct SourceLines {
    private let text: String
    /// Where each line starts and ends (after its line end); one empty line for an empty text.
    /// A text that ends with a line end has no empty line after it.
    private let bounds: [Range<String.Index>]

    init(_ text: String) {
        self.text = text
        var bounds: [Range<String.Index>] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            switch scalar {
            case "\r":
                if index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
            case "\n", "\u{85}", "\u{2028}", "\u{2029}":
                break
            default:
                continue
            }
            bounds.append(start..<index)
            start = index
        }
        if start < scalars.endIndex || bounds.isEmpty { bounds.append(start..<scalars.endIndex) }
        self.bounds = bounds
    }

    /// The 0-based `number`th line with its line end; the last line when there are fewer.
    func line(at number: Int) -> String {
        String(text.unicodeScalars[bounds[max(0, min(number, bounds.count - 1))]])
    }

    /// The 0-based line, the 0-based column in UTF-16 units and the line (with its line end) of
    /// the character `offset` characters from the start; `nil` when the text is shorter.
    func lineNumberColumnAndContents(atCharacterOffset offset: Int) -> (line: Int, column: Int, contents: String)? {
        guard offset >= 0, let index = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) else { return nil }
        // The line that holds `index`, or the last line for the text's end.
        let number = bounds.firstIndex { index < $0.upperBound } ?? bounds.count - 1
        let line = bounds[number]
        return (number, text.utf16.distance(from: line.lowerBound, to: index), String(text.unicodeScalars[line]))
    }

    /// `line`, with `\n` added unless it ends with a newline character (U+000A to U+000D,
    /// U+0085, U+2028, U+2029, as Foundation's `CharacterSet.newlines`).
    static func endingWithNewline(_ line: String) -> String {
        switch line.unicodeScalars.last?.value ?? 0 {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: line
        default: line + "\n"
        }
    }
}
