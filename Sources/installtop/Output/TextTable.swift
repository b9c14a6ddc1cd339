import TerminalUI

/// Plain-text tables: columns padded to their widest cell (by display width), two spaces
/// apart, the last column unpadded.
enum TextTable {
    /// `rows` (the first is the header), one line each, newline-terminated.
    /// - Parameter width: when given, the last column (a title, free text) is cut with "…" so
    ///   that lines fit it, keeping at least 10 columns of it; the other columns are never cut.
    static func render(_ rows: [[String]], width: Int? = nil) -> String {
        guard let columns = rows.first?.count else { return "" }
        let widths = (0..<columns).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        let lastWidth = width.map { max(10, $0 - widths.dropLast().reduce(0) { $0 + $1 + 2 }) }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                guard column == row.count - 1 else { return cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell)) }
                return lastWidth.map { TextTruncation.truncate(cell, toWidth: $0, ellipsis: TextEnvironment.isUTF8() ? "…" : "~") } ?? cell
            }
            var line = cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            text += line + "\n"
        }
        return text
    }
}
