import Foundation

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
/// The apt tests wait for a marker file or an event this way, never for a fixed time, so a
/// loaded machine only makes them slower.
func eventually(timeout: Duration = .seconds(180), _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}
