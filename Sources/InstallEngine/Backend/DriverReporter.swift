/// Receives what a driver says about its job's updates. Implemented by the engine.
public protocol DriverReporter: Sendable {
    /// Called in order, never concurrently.
    func report(_ report: DriverReport)
}
