import TerminalUI

/// Where each column of the history view's runs list goes for an inner width: date, mark,
/// result word, run id, kind, whether it can be undone, then the name in the rest. A zero width
/// means the column is not shown: the result word below 70 columns, the kind below 60, the year
/// below 60 (as in `HistoryColumns`).
struct JobRunColumns: Sendable, Hashable {
    let showsYear: Bool
    let date: Int
    let markX: Int
    let wordX: Int
    let word: Int
    let runX: Int
    let run: Int
    let kindX: Int
    let kind: Int
    let undoX: Int
    let undo: Int
    let nameX: Int
    let name: Int

    init(width: Int) {
        showsYear = width >= 60
        date = showsYear ? 16 : 11
        markX = date + 1
        wordX = markX + 2
        word = width >= 70 ? 11 : 0
        runX = wordX + word + (word > 0 ? 1 : 0)
        run = 5
        kindX = runX + run + 1
        kind = width >= 60 ? 8 : 0
        undoX = kindX + kind + (kind > 0 ? 1 : 0)
        undo = 4
        nameX = undoX + undo + 1
        name = max(0, width - nameX)
    }

    /// The headings line.
    func drawHeadings(into buffer: inout Buffer, y: Int, x: Int, style: Style) {
        let headings = [(0, date, "started"), (wordX, word, "result"), (kindX, kind, "kind"), (undoX, undo, "undo"), (nameX, name, "name")]
        for (column, width, text) in headings where width > 0 {
            buffer.write(text, x: x + column, y: y, style: style, maxWidth: width)
        }
        TextLine("run", style: style, alignment: .right).render(into: &buffer, area: Rect(x: x + runX, y: y, width: run, height: 1))
    }
}
