import TerminalUI

/// How the keys scroll a list inside a question (an apt plan, the services `R` restarts):
/// by a row, a page, or to either end, never past the last row at the bottom.
enum DialogScroll {
    /// Where `scroll` goes after `key` in a list showing `page` rows that scrolls at most
    /// `maximum` rows; `nil` when the key does not scroll the list.
    static func scroll(_ scroll: Int, after key: Key, page: Int, maximum: Int) -> Int? {
        let page = max(1, page)
        let next: Int
        switch key {
        case .up, .character("k"): next = scroll - 1
        case .down, .character("j"): next = scroll + 1
        case .pageUp: next = scroll - page
        case .pageDown: next = scroll + page
        case .home: next = 0
        case .end: next = maximum
        default: return nil
        }
        return min(max(0, next), maximum)
    }
}
