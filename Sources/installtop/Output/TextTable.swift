import TerminalUI

/// Plain-text tables: columns padded to their widest cell (by display width), two spaces
/// apart, the last column unpadded.
enum TextTable {
    /// `rows` (the first is the header), one line each, newline-terminated.
    static func render(_ rows: [[String]]) -> String {
        guard let columns = rows.first?.count else { return "" }
        let widths = (0..<columns).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }
            var line = cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            text += line + "\n"
        }
        return text
    }
}
