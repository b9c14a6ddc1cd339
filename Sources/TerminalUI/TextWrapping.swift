/// Breaking text into lines of a number of columns, measured with `DisplayWidth`.
public enum TextWrapping {
    /// `units` joined by single spaces into lines of at most `width` columns, each line as many
    /// whole units as fit. A unit wider than a line is broken between its words, joining the line
    /// it starts on; a word wider than a line is broken between graphemes. Nothing is dropped but
    /// the spaces lines break at. No units gives one empty line; `width` below 1 is taken as 1.
    public static func wrap(_ units: [String], width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for unit in units {
            let candidate = line.isEmpty ? unit : line + " " + unit
            if DisplayWidth.of(candidate) <= width {
                line = candidate
            } else if DisplayWidth.of(unit) <= width {
                lines.append(line)
                line = unit
            } else {
                for word in unit.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
                    let joined = line.isEmpty ? word : line + " " + word
                    if DisplayWidth.of(joined) <= width {
                        line = joined
                        continue
                    }
                    if !line.isEmpty { lines.append(line) }
                    line = ""
                    for character in word {
                        if DisplayWidth.of(line + String(character)) > width {
                            lines.append(line)
                            line = ""
                        }
                        line.append(character)
                    }
                }
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` in lines of at most `width` columns, broken between words (see `wrap(_:width:)`);
    /// a span in backquotes (a command to copy) stays on one line where it fits in one.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var units: [String] = []
        var quoted = false
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if quoted, let last = units.popLast() {
                units.append(last + " " + word)
            } else {
                units.append(String(word))
            }
            // An odd count of backquotes opens or closes a span.
            if word.count(where: { $0 == "`" }) % 2 == 1 { quoted.toggle() }
        }
        return wrap(units, width: width)
    }
}
