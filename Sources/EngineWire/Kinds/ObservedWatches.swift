/// Every started `ObservedSource` of an engine: relay messages go to each, and they stop
/// together.
public struct ObservedWatches: Sendable {
    private let watches: [any ObservedWatch]

    init(_ watches: [any ObservedWatch]) {
        self.watches = watches
    }

    /// Hands a relay message to every watch (each ignores what is not its own).
    public func receive(_ report: ObservedReport) {
        for watch in watches { watch.receive(report) }
    }

    /// Stops every watch. Idempotent.
    public func stop() {
        for watch in watches { watch.stop() }
    }
}
