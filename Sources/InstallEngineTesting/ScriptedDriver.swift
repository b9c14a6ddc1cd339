import InstallEngine
import Synchronization

/// A driver for tests of the driver seam (rules 21–25): the test speaks for it. It reports
/// what the test tells it to, counts stop and kill requests, and ends when the test says so.
/// By default a kill ends it at once with SIGKILL; a stop request only is counted, as a real
/// driver keeps going to its next safe point.
public final class ScriptedDriver: JobDriver {
    private struct State {
        var reporter: (any DriverReporter)?
        var requests: [DriverRunRequest] = []
        var outcome = OutcomeSlot()
        var stopRequests = 0
        var kills = 0
        var startWaiters: [(times: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let endsWhenKilled: Bool

    /// - Parameter endsWhenKilled: whether `kill()` ends the driver with SIGKILL by itself.
    public init(endsWhenKilled: Bool = true) {
        self.endsWhenKilled = endsWhenKilled
    }

    /// The plans the driver was started with, in order.
    public var requests: [DriverRunRequest] { state.withLock { $0.requests } }
    /// How often the engine asked it to stop at a safe point.
    public var stopRequests: Int { state.withLock { $0.stopRequests } }
    /// How often the engine killed it.
    public var kills: Int { state.withLock { $0.kills } }

    /// Waits until the engine has started the driver `times` times in all.
    public func waitUntilStarted(times: Int = 1) async {
        await withCheckedContinuation { continuation in
            let started = state.withLock { state -> Bool in
                if state.requests.count >= times { return true }
                state.startWaiters.append((times, continuation))
                return false
            }
            if started { continuation.resume() }
        }
    }

    /// Waits until the engine has asked the driver to stop at a safe point.
    public func waitUntilStopRequested() async {
        await withCheckedContinuation { continuation in
            let asked = state.withLock { state -> Bool in
                if state.stopRequests > 0 { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if asked { continuation.resume() }
        }
    }

    /// Reports `report` to the engine, as the running driver.
    public func say(_ report: DriverReport) {
        let reporter = state.withLock { $0.reporter }
        reporter?.report(report)
    }

    /// Reports `reports` to the engine in one call, as a driver does with what one line of its
    /// tool means.
    public func say(together reports: [DriverReport]) {
        let reporter = state.withLock { $0.reporter }
        reporter?.report(contentsOf: reports)
    }

    /// Ends the driver's process with `outcome`.
    public func end(_ outcome: UpdateRunOutcome = .exited(0)) {
        state.withLock { $0.outcome }.settle(outcome)
    }

    public func start(_ request: DriverRunRequest, reporter: any DriverReporter) -> any RunningDriver {
        let (slot, waiters) = state.withLock { state -> (OutcomeSlot, [CheckedContinuation<Void, Never>]) in
            state.reporter = reporter
            state.requests.append(request)
            state.outcome = OutcomeSlot()
            let count = state.requests.count
            defer { state.startWaiters.removeAll { $0.times <= count } }
            return (state.outcome, state.startWaiters.filter { $0.times <= count }.map(\.continuation))
        }
        for waiter in waiters { waiter.resume() }
        return Handle(driver: self, slot: slot)
    }

    fileprivate func stopRequested() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopRequests += 1
            defer { state.stopWaiters = [] }
            return state.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    fileprivate func killed(_ slot: OutcomeSlot) {
        state.withLock { $0.kills += 1 }
        if endsWhenKilled { slot.settle(.signaled(9)) }
    }

    private struct Handle: RunningDriver {
        let driver: ScriptedDriver
        let slot: OutcomeSlot

        func stopAtSafePoint() { driver.stopRequested() }
        func kill() { driver.killed(slot) }
        var outcome: UpdateRunOutcome { get async { await slot.outcome } }
        func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) { slot.whenSettled(handler) }
    }
}
