import TerminalUI

/// Plain-text tables: columns padded to their widest cell (by display width), two spaces
/// apart, the last column unpadded.
enum TextTable {
    /// Columns a narrow width cuts keep at least this many.
    static let minimumShrunkWidth = 6
    /// The last column is cut to this before any other is cut.
    static let preferredLastWidth = 10
    /// How far a row's note is indented under it.
    static let noteIndent = 4

    /// `rows` (the first is the header), one line each, newline-terminated.
    /// - Parameters:
    ///   - width: when given, the last column (free text) and then the columns in `shrinking`
    ///     are cut with "…" so that lines fit it: the last down to `preferredLastWidth` first,
    ///     then the widest of them, none below `minimumShrunkWidth`; the other columns are never
    ///     cut, so a width too small for them is exceeded.
    ///   - notes: per row, text printed whole under it on lines of its own, indented by
    ///     `noteIndent` and wrapped between words to `width` (an empty note prints nothing).
    ///   - lines: lines printed as they are before row N (`rows.count`: after the last), outside
    ///     the columns: their width counts for none of them.
    static func render(_ rows: [[String]], width: Int? = nil, shrinking: Set<Int> = [], notes: [String] = [],
                       lines: [Int: [String]] = [:]) -> String {
        guard let columns = rows.first?.count else { return "" }
        var widths = (0..<columns).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        if let width {
            let cuttable = shrinking.union([columns - 1])
            // The last column is not padded, so its width counts only as far as its cells reach.
            var excess = widths.reduce(0, +) + 2 * (columns - 1) - width
            let lastCut = min(max(0, excess), max(0, widths[columns - 1] - preferredLastWidth))
            widths[columns - 1] -= lastCut
            excess -= lastCut
            while excess > 0, let widest = cuttable.filter({ widths[$0] > minimumShrunkWidth }).max(by: { widths[$0] < widths[$1] }) {
                widths[widest] -= 1
                excess -= 1
            }
        }
        let ellipsis: Character = TextEnvironment.isUTF8() ? "…" : "~"
        var text = ""
        for (index, row) in rows.enumerated() {
            for line in lines[index] ?? [] { text += line + "\n" }
            let cells = row.enumerated().map { column, cell in
                let fitted = TextTruncation.truncate(cell, toWidth: widths[column], ellipsis: ellipsis)
                guard column < row.count - 1 else { return fitted }
                return fitted + String(repeating: " ", count: widths[column] - DisplayWidth.of(fitted))
            }
            var line = cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            text += line + "\n"
            guard index < notes.count, !notes[index].isEmpty else { continue }
            let indent = String(repeating: " ", count: noteIndent)
            for noteLine in TextWrapping.wrap(notes[index], width: (width ?? Int.max) - noteIndent) {
                text += indent + noteLine + "\n"
            }
        }
        for line in lines[rows.count] ?? [] { text += line + "\n" }
        return text
    }
}
