#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Drives a `JobMachine` the way `InstallationJob` does, with a manual clock: scheduled timers
/// fire only when the test advances time, and everything the machine asked for is recorded as
/// steps. So the engine's rules are tested on values, without processes and without sleeping.
public struct JobMachineHarness: Sendable {
    /// What the runner would have done, in order.
    public enum Step: Sendable, Hashable {
        case notified(JobChange)
        case startedUpdate(Int)
        case startedDriver
        case terminated
        case killed
        case completed(OperationResultCode)
    }

    public private(set) var machine: JobMachine
    public private(set) var steps: [Step] = []
    /// What every `.notified` step was called with (snapshot, change, figures), in the same
    /// order: what the engine's callbacks, and so its events, are made of.
    public private(set) var notifications: [InstallationProgressChangedArgs] = []
    /// The snapshot of every `.notified` step, in the same order.
    public var snapshots: [InstallationProgress] { notifications.map(\.progress) }
    /// Time since the harness was made.
    public private(set) var elapsed: Duration = .zero
    /// Scheduled timers and when they fire.
    public private(set) var timers: [JobTimer: Duration] = [:]
    private let origin = Date(timeIntervalSince1970: 1_800_000_000)

    public init(_ machine: JobMachine) {
        self.machine = machine
    }

    /// The manual clock's wall time.
    public var now: Date {
        let (seconds, attoseconds) = elapsed.components
        return origin.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The job's changes so far, in callback order.
    public var changes: [JobChange] {
        steps.compactMap { if case .notified(let change) = $0 { change } else { nil } }
    }

    /// How often the update or driver was signalled.
    public var terminations: Int { steps.count { $0 == .terminated } }
    public var kills: Int { steps.count { $0 == .killed } }

    // MARK: - Inputs

    public mutating func start() { perform(machine.start(now: now)) }
    public mutating func launched(_ index: Int) { perform(machine.updateLaunched(at: index)) }
    public mutating func report(_ report: UpdateReport, from index: Int) { perform(machine.receive(report, fromUpdateAt: index)) }
    public mutating func abort(force: Bool = false) { perform(machine.requestAbort(force: force)) }

    /// The child of update `index` ended this way.
    public mutating func ended(_ index: Int, _ outcome: UpdateRunOutcome, rebootMarkerChanged: Bool = false) {
        perform(machine.updateEnded(at: index, outcome: outcome, rebootMarkerChanged: rebootMarkerChanged, now: now))
    }

    /// Starts update `index`'s child, then ends it with `outcome` after `duration`.
    public mutating func run(_ index: Int, for duration: Duration = .zero, _ outcome: UpdateRunOutcome = .exited(0)) {
        launched(index)
        advance(by: duration)
        ended(index, outcome)
    }

    public mutating func driver(_ report: DriverReport) {
        perform(machine.driverReported(report, now: now))
    }

    public mutating func driverEnded(_ outcome: UpdateRunOutcome) {
        perform(machine.driverEnded(outcome: outcome, now: now))
    }

    /// Fires `timer` now, as a timer the runner had already started would, even one the machine
    /// cancelled since.
    public mutating func perform(timer: JobTimer) {
        perform(machine.timerFired(timer))
    }

    /// Moves the manual clock on, firing every timer that falls due, in deadline order.
    public mutating func advance(by duration: Duration) {
        let target = elapsed + duration
        while let (timer, deadline) = timers.filter({ $0.value <= target }).min(by: { $0.value < $1.value }) {
            timers[timer] = nil
            elapsed = deadline
            perform(machine.timerFired(timer))
        }
        elapsed = target
    }

    // MARK: - Performing

    private mutating func perform(_ actions: [JobAction]) {
        for action in actions {
            switch action {
            case .notify(let args):
                steps.append(.notified(args.change))
                notifications.append(args)
            case .startUpdate(let index): steps.append(.startedUpdate(index))
            case .startDriver: steps.append(.startedDriver)
            case .terminate: steps.append(.terminated)
            case .kill: steps.append(.killed)
            case .schedule(let timer, let delay): timers[timer] = elapsed + delay
            case .cancel(let timer): timers[timer] = nil
            case .complete(let result): steps.append(.completed(result.resultCode))
            }
        }
    }
}
