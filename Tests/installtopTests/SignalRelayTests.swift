import Dispatch
import Glibc
import Testing
@testable import installtop

/// A termination signal between two owners (issue 56, item 6): `SignalRelay.cancel` gave the
/// default disposition back, so a SIGINT after a run's own relay ended, inside `apt --yes`'s
/// relay or after the last one, killed installtop (exit -2 where the run said 3). Each case
/// runs in a process of its own (an exit test): with the defect, the signal kills it.
@Suite("SignalRelay: a signal between owners is never the default's")
struct SignalRelayTests {
    @Test("A relay made inside another gives the signal back to it when cancelled")
    func nestedRelayGivesTheSignalBack() async {
        await #expect(processExitsWith: .success) {
            let outerGot = DispatchSemaphore(value: 0)
            let outer = SignalRelay(signals: [SIGINT]) { signal, count in
                if signal == SIGINT, count == 1 { outerGot.signal() }
            }
            let inner = SignalRelay(signals: [SIGINT]) { _, _ in exit(4) }
            inner.cancel()
            raise(SIGINT)
            guard outerGot.wait(timeout: .now() + 120) == .success else { exit(5) }
            outer.cancel()
        }
    }

    @Test("A signal after the last relay is parked and goes to the next relay")
    func signalAfterTheLastRelayIsParkedForTheNext() async {
        await #expect(processExitsWith: .success) {
            let first = SignalRelay(signals: [SIGTERM]) { _, _ in exit(4) }
            first.cancel()
            raise(SIGTERM)
            raise(SIGTERM)
            let counts = DispatchSemaphore(value: 0)
            let next = SignalRelay(signals: [SIGTERM]) { signal, count in
                if signal == SIGTERM, count <= 2 { counts.signal() }
            }
            for _ in 0..<2 where counts.wait(timeout: .now() + 120) != .success { exit(5) }
            next.cancel()
        }
    }
}
