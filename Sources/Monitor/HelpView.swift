import TerminalUI

/// The key help (`?`) laid out for the monitor's size: a box of up to 80 columns centred in the
/// body, each key beside what it does, both wrapped to their columns, and a last line saying how
/// to leave. When the lines do not all fit (a 40×12 terminal) the list scrolls: the arrows, PgUp,
/// PgDn, Home and End move it and the last line says which lines show; any other key closes it.
struct HelpView {
    /// One line of the list: keys (empty on a continuation) and action text.
    struct Line: Hashable {
        var keys: String
        var action: String
    }

    /// Where the box goes.
    let box: Rect
    /// The columns the keys take inside the box.
    let keyWidth: Int
    let lines: [Line]
    /// How many lines of the list show at once.
    let page: Int

    /// The help of `state`'s keys at `state`'s size.
    init(state: MonitorState) {
        let body = state.layout.body
        let width = min(80, body.width)
        let inner = max(1, width - 2)
        let ascii = state.glyphs.box == .ascii
        let entries = state.keyHelp.map { (keys: ascii ? $0.keys.replacing("↑ ↓", with: "Up Dn") : $0.keys, action: $0.action) }
        let keyWidth = max(1, min(20, inner / 3))
        // A blank before the keys and one between them and the text.
        let actionWidth = max(1, inner - keyWidth - 2)
        var lines: [Line] = []
        for entry in entries {
            let keys = TextWrapping.wrap([entry.keys], width: keyWidth)
            let action = TextWrapping.wrap([entry.action], width: actionWidth)
            for row in 0..<max(keys.count, action.count) {
                lines.append(Line(keys: row < keys.count ? keys[row] : "", action: row < action.count ? action[row] : ""))
            }
        }
        // Room for the list, a blank and the last line; at the smallest sizes without the blank.
        let height = min(lines.count + 4, body.height)
        box = Rect(x: body.x + (body.width - width) / 2, y: body.y + (body.height - height) / 2, width: width, height: height)
        let rows = max(0, height - 2)
        page = lines.count + 2 <= rows ? lines.count : max(1, rows - 1)
        self.keyWidth = keyWidth
        self.lines = lines
    }

    /// True when some lines do not show at once.
    var scrolls: Bool { page < lines.count }

    /// The furthest the list scrolls: its last line at the bottom.
    var maximumScroll: Int { max(0, lines.count - page) }

    /// Where the list scrolled `scroll` lines goes after `key`; `nil` when the key closes the
    /// help (every key when nothing scrolls).
    func scroll(_ scroll: Int, after key: Key) -> Int? {
        guard scrolls else { return nil }
        return DialogScroll.scroll(scroll, after: key, page: page, maximum: maximumScroll)
    }

    /// The last line inside the box, scrolled `scroll` lines, for `width` columns.
    func footer(scroll: Int, width: Int, upDown: String) -> String {
        guard scrolls else { return "any key closes this help" }
        let first = min(max(0, scroll), maximumScroll)
        let range = "\(first + 1)-\(min(lines.count, first + page)) of \(lines.count)"
        let texts = ["\(upDown) PgUp PgDn scroll · \(range) · other keys close", "\(upDown) scroll · \(range) · other keys close",
                     "\(upDown) scroll · \(range)"]
        return texts.first { DisplayWidth.of($0) <= width } ?? range
    }
}
