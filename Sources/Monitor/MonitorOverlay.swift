import TerminalUI

/// What is drawn over the panes and takes every key while it is open.
public enum MonitorOverlay: Sendable, Hashable {
    /// The list of keys (`HelpView`), scrolled `scroll` lines when it does not fit; a key that
    /// does not scroll it closes it.
    case help(scroll: Int)
    /// A yes/no question.
    case confirm(Confirmation)
    /// The whole output tail of update `index` of job `job`; `scroll` is how many lines the
    /// view is scrolled up from the newest (0 follows the output).
    case fullOutput(job: Int, index: Int, scroll: Int)
    /// The detail of job `job` (`JobDetail`): its result and its restart advice, scrolled
    /// `scroll` lines down from the top.
    case jobDetail(job: Int, scroll: Int)
    /// The install history, newest first, with its own filter and scroll position.
    case history(HistoryView)
    /// The rollout's plans (`U`): each host's held job, answered once for all (`Rollout`).
    case rollout
}

extension MonitorOverlay {
    /// Where the full-output view scrolled `scroll` lines up goes after `key`, with `lines`
    /// lines of which `page` are visible: up and page up go back in time, Home to the oldest
    /// line, End back to following the newest; `nil` when the key (Esc, `q`, Enter) closes it.
    static func fullOutputScroll(_ scroll: Int, after key: Key, lines: Int, page: Int) -> Int? {
        let maximum = max(0, lines - page)
        var newScroll = scroll
        switch key {
        case .escape, .character("q"), .enter: return nil
        case .up, .character("k"): newScroll += 1
        case .down, .character("j"): newScroll -= 1
        case .pageUp: newScroll += page
        case .pageDown: newScroll -= page
        case .home: newScroll = maximum
        case .end: newScroll = 0
        default: break
        }
        return min(max(0, newScroll), maximum)
    }
}
