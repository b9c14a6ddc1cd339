/// A row of the grouped board's jobs pane: a host (its current job and that job's bar), or, under
/// an expanded host, one of its jobs.
public enum BoardRow: Sendable, Hashable {
    case host(String)
    case job(Int)
}
