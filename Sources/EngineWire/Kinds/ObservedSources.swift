import InstallEngine

/// The registered sources of observed jobs of a process (`EngineHost.observedSources`), as
/// `JobKinds` is of its job kinds: what an engine that serves starts.
public struct ObservedSources: Sendable {
    /// In the order the engine starts them and logs their notes.
    public let all: [any ObservedSource]

    /// No source: the engine shows no observed job, and relay messages are dropped.
    public init(_ sources: [any ObservedSource] = []) {
        all = sources
    }

    /// Starts every source on `queue`; the watches stop with `ObservedWatches.stop()`.
    public func start(on queue: JobQueue) -> ObservedWatches {
        ObservedWatches(all.map { $0.start(on: queue) })
    }
}
