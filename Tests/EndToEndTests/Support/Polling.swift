import Foundation

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
/// Tests wait this way instead of sleeping a fixed time. The default deadline only bounds a
/// test that is broken: a full run at load 23 (about 200 tests at once on 2 cores) saw waits
/// of over 60 s for what takes a second alone.
func eventually(timeout: Duration = .seconds(180), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// Like `eventually`, but throws `conditionNotMet(what)` when the condition never held, for
/// waits the rest of a test cannot do without.
func waitUntil(_ what: String, timeout: Duration = .seconds(180), _ condition: () async throws -> Bool) async throws {
    guard try await eventually(timeout: timeout, condition) else { throw EndToEndError.conditionNotMet(what) }
}
