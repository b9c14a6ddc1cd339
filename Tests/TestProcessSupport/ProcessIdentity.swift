import Foundation
import Glibc

/// One process as the kernel tells it apart from every other: its id and its start time
/// (field 22 of `/proc/PID/stat`, clock ticks since boot). An id alone names another process
/// once this one has ended and been reaped by someone else: this machine's `pid_max` is 32,768,
/// and a loaded test run goes through them in minutes. A CI run lost an unrelated installtop to
/// a SIGTERM sent to a tmux server's stale id, and read a grandchild as "still running" from a
/// reused one. Ask and signal processes that are not the test's own children through this.
public struct ProcessIdentity: Sendable, Hashable, CustomStringConvertible {
    public let pid: pid_t
    /// `nil` when the process had already ended when it was identified.
    public let startTime: UInt64?

    /// The process that has id `pid` now (an ended one when there is none).
    public init(pid: pid_t) {
        self.pid = pid
        startTime = Self.stat(of: pid).flatMap { $0.state == "Z" ? nil : $0.startTime }
    }

    /// Whether this very process still runs: the id names a process with the same start time,
    /// and it is not a zombie.
    public var isRunning: Bool {
        guard let startTime, let now = Self.stat(of: pid) else { return false }
        return now.startTime == startTime && now.state != "Z"
    }

    /// Sends `signal` to this process if it still runs; whether it was sent. (Between the check
    /// and the signal the id could change hands only if the process ended and 32,768 others
    /// started in those microseconds.)
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        isRunning && kill(pid, signal) == 0
    }

    public var description: String { "\(pid)" }

    /// The state letter and start time of `/proc/PID/stat`; `nil` when there is no such process.
    private static func stat(of pid: pid_t) -> (state: Character, startTime: UInt64)? {
        // After the name: state (field 3) … starttime (field 22).
        guard pid > 0, let fields = ProcessStat.fields(in: "/proc/\(pid)"), fields.count > 19,
              let state = fields[0].first, let start = UInt64(fields[19]) else { return nil }
        return (state, start)
    }
}
