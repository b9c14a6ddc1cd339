/// Splits a line into words as Python's `shlex.split(line, comments=True)` does, which is how
/// Ansible reads an INI inventory's host lines: spaces separate words, quotes group them, a
/// backslash escapes outside single quotes, `#` at the start of a word ends the line.
enum ShellWords {
    static func split(_ line: String) throws(InventoryErrorMessage) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "\\":
                escaped = true
                inWord = true
            case "'", "\"":
                quote = character
                inWord = true
            case "#" where !inWord:
                return words
            case _ where character.isWhitespace:
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw InventoryErrorMessage("a quote is not closed: \(line)") }
        if inWord { words.append(current) }
        return words
    }
}
