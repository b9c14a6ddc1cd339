import TerminalUI

/// The state of the history overlay: the rows the runtime loaded (or why there are none), the
/// view's own `/` filter and how far it is scrolled.
public struct HistoryView: Sendable, Hashable {
    /// What the runtime answered to `.loadHistory`.
    public enum Content: Sendable, Hashable {
        /// Asked for, not answered yet.
        case loading
        /// Newest first.
        case rows([HistoryRow])
        /// History is off or could not be read; the text says why.
        case unavailable(String)
    }

    /// How many rows the view asks for: the newest ones.
    public static let rowLimit = 500

    public internal(set) var content: Content = .loading
    /// The view's own `/` filter; empty shows every row.
    public internal(set) var filter = TextInput()
    /// The first visible row of `visibleRows`.
    public internal(set) var offset = 0

    public init() {}

    /// The filter text; empty shows every row.
    public var filterText: String { filter.text }
    /// True while keys type into the filter.
    public var isEditingFilter: Bool { filter.isEditing }

    /// The loaded rows that match the filter, newest first (empty while loading or unavailable).
    public var visibleRows: [HistoryRow] {
        guard case .rows(let rows) = content else { return [] }
        let text = filterText.lowercased()
        return text.isEmpty ? rows : rows.filter { $0.matches(text) }
    }

    /// All loaded rows, filter or not.
    public var loadedCount: Int {
        if case .rows(let rows) = content { return rows.count }
        return 0
    }

    /// Handles a key with `page` rows visible; returns false when the key closes the view.
    /// While the filter is edited every key goes to it (`q` and `h` type) and the list starts
    /// again from its newest row; otherwise the arrows and page keys scroll, `/` edits the
    /// filter, and Esc, `h` or `q` close the view.
    mutating func handle(_ key: Key, page: Int) -> Bool {
        if filter.isEditing {
            _ = filter.edit(key)
            offset = 0
            return true
        }
        switch key {
        case .escape, .character("h"), .character("q"): return false
        case .character("/"): filter.beginEditing()
        case .up, .character("k"): offset -= 1
        case .down, .character("j"): offset += 1
        case .pageUp: offset -= page
        case .pageDown: offset += page
        case .home: offset = 0
        case .end: offset = Int.max / 2
        default: break
        }
        clampOffset(page: page)
        return true
    }

    /// Keeps `offset` within the rows when `page` rows are visible: the last page is full.
    mutating func clampOffset(page: Int) {
        offset = min(max(0, offset), max(0, visibleRows.count - max(1, page)))
    }
}
