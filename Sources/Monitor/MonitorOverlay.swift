/// What is drawn over the panes and takes every key while it is open.
public enum MonitorOverlay: Sendable, Hashable {
    /// The list of keys; any key closes it.
    case help
    /// A yes/no question.
    case confirm(Confirmation)
    /// The whole output tail of update `index` of job `job`; `scroll` is how many lines the
    /// view is scrolled up from the newest (0 follows the output).
    case fullOutput(job: Int, index: Int, scroll: Int)
    /// The install history, newest first, with its own filter and scroll position.
    case history(HistoryView)
}
