/// Polls `condition` every `interval` until it holds or `timeout` passes, and once more after
/// the deadline; returns whether it held. Every test target waits this way, never for a fixed
/// time. The default deadline only bounds a broken test: loaded full runs saw waits of over
/// 60 s for what takes a second alone. The look after the deadline matters there too: a test
/// whose wake-up came late still sees a condition that came true meanwhile.
/// - Parameter interval: the pause between two looks; longer where a look is costly (one that
///   starts a process, as `tmux capture-pane`).
public func eventually(timeout: Duration = .seconds(180), every interval: Duration = .milliseconds(5),
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
