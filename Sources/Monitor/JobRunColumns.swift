import TerminalUI

/// Where each column of the history view's runs list goes for an inner width: date, mark,
/// result word, run id, kind, whether it can be undone, then the name in the rest. A zero width
/// means the column is not shown: the result word below 70 columns, the kind below 60, the year
/// below 60 (as in `HistoryColumns`).
struct JobRunColumns: Sendable, Hashable {
    let width: Int

    /// The date, the result's mark and its word.
    var result: HistoryResultColumns { HistoryResultColumns(width: width) }
    var runX: Int { result.endX }
    var run: Int { 5 }
    var kindX: Int { runX + run + 1 }
    var kind: Int { width >= 60 ? 8 : 0 }
    var undoX: Int { kindX + kind + (kind > 0 ? 1 : 0) }
    var undo: Int { 4 }
    var nameX: Int { undoX + undo + 1 }
    var name: Int { max(0, width - nameX) }

    /// The headings line.
    func drawHeadings(into buffer: inout Buffer, y: Int, x: Int, style: Style) {
        result.drawHeadings(into: &buffer, y: y, x: x, style: style)
        let headings = [(kindX, kind, "kind"), (undoX, undo, "undo"), (nameX, name, "name")]
        for (column, width, text) in headings where width > 0 {
            buffer.write(text, x: x + column, y: y, style: style, maxWidth: width)
        }
        TextLine("run", style: style, alignment: .right).render(into: &buffer, area: Rect(x: x + runX, y: y, width: run, height: 1))
    }
}
