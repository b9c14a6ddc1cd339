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
    /// The filter text; empty shows every row.
    public internal(set) var filterText = ""
    /// True while keys type into the filter.
    public internal(set) var isEditingFilter = false
    /// The first visible row of `visibleRows`.
    public internal(set) var offset = 0

    public init() {}

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

    /// Keeps `offset` within the rows when `page` rows are visible: the last page is full.
    mutating func clampOffset(page: Int) {
        offset = min(max(0, offset), max(0, visibleRows.count - max(1, page)))
    }
}
