/// Polls `condition` every 5 ms until it holds or `timeout` passes; returns whether it held.
/// Tests use it instead of sleeping a fixed time.
func eventually(timeout: Duration = .seconds(180), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

