/// Receives what a running update says. Implemented by the engine; tests use a recorder.
public protocol UpdateReporter: Sendable {
    /// Called in order for one update, never concurrently for one update.
    func report(_ report: UpdateReport)

    /// Reports taken and not yet handled by whoever consumes them (the job and the callbacks
    /// behind it), as far as the reporter knows. A reader of a child's output stops reading
    /// while it is high (`ChildSinks.consumerBacklog`), so a child that writes faster than the
    /// engine and its subscribers take its lines waits in its `write`, as it would on a slow
    /// terminal, instead of the engine's memory growing without bound. Zero by default.
    var backlog: Int { get }
}

extension UpdateReporter {
    public var backlog: Int { 0 }
}
