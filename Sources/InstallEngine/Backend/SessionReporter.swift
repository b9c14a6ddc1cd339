/// Receives what a session driver says. Implemented by the engine.
public protocol SessionReporter: Sendable {
    func report(_ report: SessionReport)
}
