import EngineDaemon
import Foundation
import Synchronization
import Testing

/// Writes at most once per interval, and the last state always.
@Suite("Metrics: throttled writes")
struct ThrottledWritesTests {
    @Test("a burst of 1,000 requests makes at most two writes, the last of which sees the last state")
    func burst() throws {
        let state = Atomic(0)
        let written = Mutex<[Int]>([])
        let writes = ThrottledWrites(interval: .seconds(2)) { written.withLock { $0.append(state.load(ordering: .acquiring)) } }
        defer { writes.stop() }
        let started = ContinuousClock.now
        for value in 1...1_000 {
            state.store(value, ordering: .releasing)
            writes.request()
        }
        let burst = ContinuousClock.now - started
        let deadline = ContinuousClock.now + .seconds(60)
        while written.withLock({ $0.last }) != 1_000, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let values = written.withLock { $0 }
        #expect(values.last == 1_000, "\(values)")
        // The first request writes at once; everything after it waits for the interval. A
        // machine slow enough to spend the interval on the loop itself may need one more.
        #expect(values.count <= (burst > .seconds(2) ? 3 : 2), "\(values), the burst took \(burst)")
    }

    @Test("a request within the interval of the last write waits for it; stop writes the last state at once")
    func spacingAndStop() throws {
        let times = Mutex<[ContinuousClock.Instant]>([])
        let writes = ThrottledWrites(interval: .milliseconds(300)) { times.withLock { $0.append(.now) } }
        writes.request()
        let deadline = ContinuousClock.now + .seconds(60)
        while times.withLock(\.count) < 1, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        writes.request()
        while times.withLock(\.count) < 2, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let spaced = times.withLock { $0 }
        try #require(spaced.count == 2)
        #expect(spaced[1] - spaced[0] >= .milliseconds(300))
        writes.stop()
        #expect(times.withLock(\.count) == 3, "stop writes at once, within the interval of the last write")
    }
}
