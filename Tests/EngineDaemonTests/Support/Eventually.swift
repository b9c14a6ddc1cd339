/// Polls `condition` every 5 ms until it holds or `timeout` passes; returns whether it held.
/// Tests use it instead of sleeping a fixed time.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Like `eventually`, but every quarter second the condition is still false it sends the engine
/// a harmless command on `collector`'s connection, which wakes the server's I/O thread. That
/// works around the lost wakeup `eventsAfterABurstAreNotLeftWaiting` shows, for tests that
/// flood a client and are about something else.
func eventuallyNudging(_ collector: MessageCollector, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<40 {
        if await eventually(timeout: .milliseconds(250), condition) { return true }
        _ = try? collector.client.send(.durations(updateIDs: []))
    }
    return condition()
}
