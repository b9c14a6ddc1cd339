import Foundation
import Synchronization

/// A wall clock the test moves by hand, for a `MonitorLoop` on another thread: time passes
/// only when `advance(by:)` says so, so a test sees ticks without sleeping.
final class ManualClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date = Date()) { time = Mutex(start) }

    var now: Date { time.withLock { $0 } }

    func advance(by seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// The closure `MonitorLoop` reads the time through.
    var reading: @Sendable () -> Date { { [self] in now } }
}
