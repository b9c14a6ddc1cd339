/// Receives what a running update says. Implemented by the engine; tests use a recorder.
public protocol UpdateReporter: Sendable {
    /// Called in order for one update, never concurrently for one update.
    func report(_ report: UpdateReport)
}
