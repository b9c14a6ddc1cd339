import Dispatch
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization

/// One transaction another program runs (rule 28), from its first hook message to its end: it
/// turns dpkg's status lines into reports on the observed job's updates, and at the end checks
/// every package against dpkg's final state (rule 30). Without apt's plan (`addsPackages`), a
/// package dpkg begins work on that the job does not have becomes an update of its own, added
/// to the job and started then.
///
/// Reports are made in order on a serial queue of its own, never under its lock; those made
/// before the queue starts the job wait in `pending`.
public final class ObservedTransaction: Sendable {
    private struct State {
        var changes: [PackageChange]
        var index: [String: Int]
        var reporter: (any DriverReporter)?
        var pending: [DriverReport] = []
        var started: Set<Int> = []
        /// Seen in a state other than where it began, so `installed` now means it got there.
        var moved: Set<Int> = []
        /// When dpkg's lines last left each package in its final state: its end, though its
        /// result waits for the transaction's (rule 30).
        var done: [Int: Date] = [:]
        var errors: [Int: String] = [:]
        /// The end was reached; `ended` is called once the job has its reporter.
        var over = false
        /// `end` has given every package its verdict: the job's end may be told. Later than
        /// `over`, which `end` sets before it reads dpkg's final state without the lock.
        var settled = false
        var endWaiters: [@Sendable () -> Void] = []
    }

    public let initiator: ObservedInitiator
    public let administrativeDirectory: String
    /// The job's plan is partial (no apt plan): packages dpkg names later are added to it.
    public let addsPackages: Bool
    private let state: Mutex<State>
    private let deliveries = DispatchQueue(label: "installtop.observed")

    public init(initiator: ObservedInitiator, changes: [PackageChange], administrativeDirectory: String, addsPackages: Bool = false) {
        self.initiator = initiator
        self.administrativeDirectory = administrativeDirectory
        self.addsPackages = addsPackages
        var index: [String: Int] = [:]
        for (position, change) in changes.enumerated() { index[change.package] = position }
        state = Mutex(State(changes: changes, index: index))
    }

    /// The packages of the job, in order.
    public var changes: [PackageChange] { state.withLock { $0.changes } }

    /// The update of the observed job for `change`: named after its package, a reboot possible.
    public static func update(for change: PackageChange) -> Update {
        Update(id: change.package, title: change.title, rebootBehavior: .may, package: change)
    }

    /// The queue started the job: what was reported so far is delivered now.
    func attach(_ reporter: any DriverReporter) {
        state.withLock { state in
            state.reporter = reporter
            let reports = state.pending
            // Not `over`: `end` may still be reading dpkg's state, its verdicts not yet emitted;
            // the end told now would come before them and they would be refused.
            let over = state.settled
            state.pending = []
            deliveries.async {
                for report in reports { reporter.report(report) }
                if over { reporter.ended(.exited(0)) }
            }
            if over { finishWaiters(&state) }
        }
    }

    /// dpkg's status lines, in the order the relay read them.
    public func receive(statusLines lines: [String]) {
        receive(lines.compactMap(DpkgStatusLine.init))
    }

    /// `count` of dpkg's lines never reached the engine (the relay's `dropped`): counted with the
    /// job's result. Nothing once the transaction is over, or for a count below 1.
    public func receive(droppedLines count: Int) {
        guard count > 0 else { return }
        state.withLock { state in
            guard !state.over else { return }
            emit(.linesDropped(count), state: &state)
        }
    }

    /// dpkg's lines, parsed (from the relay or from dpkg's log), in order. `known` says more of a
    /// package than its name (dpkg's log gives versions), for one added to the job.
    public func receive(_ lines: [DpkgStatusLine], known: [PackageChange] = []) {
        state.withLock { state in
            guard !state.over else { return }
            for line in lines {
                if addsPackages { add(line, known: known, state: &state) }
                for report in Self.reports(for: line, state: &state) { emit(report, state: &state) }
            }
        }
    }

    /// The transaction is over (apt's Post-Invoke, or its process and its dpkg are gone): every
    /// package gets its result from dpkg's final state (rule 30), ended when dpkg's lines last
    /// left it there. One the lines never showed begin has no known start, and gets none: its
    /// time is unknown, not the moment of this end. Idempotent.
    public func end() {
        let pending = state.withLock { state -> [(Int, PackageChange)]? in
            guard !state.over else { return nil }
            state.over = true
            return state.changes.enumerated().map { ($0.offset, $0.element) }
        }
        guard let pending else { return }
        // Read until dpkg-query answers (three tries, a second apart; this runs on the
        // transactions' background queue): the empty output of a dpkg-query that failed read
        // as every package not installed, after an apt-get that may have installed them all.
        var final: Result<[String: APTPackageState], APTPackageState.QueryFailure> = .success([:])
        if !pending.isEmpty {
            for attempt in 0..<3 {
                if attempt > 0 { usleep(1_000_000) }
                final = APTPackageState.checkedQuery(administrativeDirectory: administrativeDirectory)
                if case .success = final { break }
            }
        }
        // Unread, no package is known to be where the transaction took it.
        let (states, unreadable): ([String: APTPackageState], String?) = switch final {
        case .success(let states): (states, nil)
        case .failure(let failure): ([:], "dpkg's final state could not be read: \(failure)")
        }
        state.withLock { state in
            for (index, change) in pending {
                let now = states[change.package] ?? .notInstalled
                var verdict: DriverVerdict
                if unreadable == nil, now.satisfies(change) {
                    verdict = .succeeded
                } else if state.started.contains(index) {
                    verdict = .failed(state.errors[index] ?? unreadable ?? "dpkg left it \(now)")
                } else {
                    verdict = DriverVerdict(resultCode: .aborted, reason: "not reached by \(initiator.programName)", hResult: .callCancelled)
                }
                if verdict.resultCode.isSuccess { verdict.endedAt = state.done[index] }
                verdict.startUnknown = !state.started.contains(index)
                emit(.updateFinished(index: index, verdict), state: &state)
            }
            state.settled = true
            if let reporter = state.reporter {
                deliveries.async { reporter.ended(.exited(0)) }
                finishWaiters(&state)
            }
        }
    }

    /// Waits until the job has ended and every report is delivered.
    var outcome: UpdateRunOutcome {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.settled && state.reporter != nil && state.pending.isEmpty { return true }
                    state.endWaiters.append { continuation.resume() }
                    return false
                }
                if now { deliveries.async { continuation.resume() } }
            }
            return .exited(0)
        }
    }

    // MARK: - Reports

    /// The change dpkg begins with `line` (`processing: install: P` …), without versions; `nil`
    /// for any other line, and for trigger processing, which changes no package.
    public static func change(beginning line: DpkgStatusLine) -> PackageChange? {
        guard case .processing(let action, let package) = line else { return nil }
        switch action {
        case "install", "upgrade", "configure": return PackageChange(package: package, action: .install)
        case "remove": return PackageChange(package: package, action: .remove)
        case "purge": return PackageChange(package: package, action: .purge)
        default: return nil
        }
    }

    /// A package dpkg begins to install, configure or remove that the job does not have: an
    /// update added and started now (rule 21).
    private func add(_ line: DpkgStatusLine, known: [PackageChange], state: inout State) {
        guard var change = Self.change(beginning: line), state.index[change.package] == nil else { return }
        if let better = known.last(where: { $0.package == change.package }) { change = better }
        let index = state.changes.count
        state.changes.append(change)
        state.index[change.package] = index
        state.started.insert(index)
        emit(.updateAdded(Self.update(for: change)), state: &state)
    }

    private func emit(_ report: DriverReport, state: inout State) {
        if let reporter = state.reporter {
            deliveries.async { reporter.report(report) }
        } else {
            state.pending.append(report)
        }
    }

    private func finishWaiters(_ state: inout State) {
        let waiters = state.endWaiters
        state.endWaiters = []
        // After the reports queued before: the job has them all when its outcome returns.
        deliveries.async { for waiter in waiters { waiter() } }
    }

    /// What one dpkg line means for the job: a start, a phase, an error or an end.
    private static func reports(for line: DpkgStatusLine, state: inout State) -> [DriverReport] {
        let package: String
        switch line {
        case .processing(_, let name), .status(let name, _), .error(let name, _): package = name
        }
        guard let index = state.index[package] else { return [] }
        var reports: [DriverReport] = []
        if !state.started.contains(index) {
            state.started.insert(index)
            reports.append(.updateStarted(index: index))
        }
        let removal = state.changes[index].isRemoval
        switch line {
        case .processing(let action, _):
            reports.append(.update(index: index, .progress(percent: 0, message: "dpkg: \(action)")))
        case .error(_, let message):
            state.errors[index] = message
            reports.append(.update(index: index, .error(message)))
        case .status(_, let word):
            let done = removal ? (word == "not-installed" || word == "config-files") : word == "installed"
            if done && state.moved.contains(index) {
                state.done[index] = Date()
                // Not the result yet: dpkg says `installed` before it has written its database,
                // and a dpkg killed then leaves the package half-configured (rule 30's check).
                reports.append(.update(index: index, .progress(percent: 100, message: (removal ? APTPackagePhase.removed : .installed).word)))
                return reports
            }
            state.moved.insert(index)
            if let (percent, phase) = phase(word, removal: removal) {
                reports.append(.update(index: index, .progress(percent: percent, message: phase)))
            }
        }
        return reports
    }

    /// A dpkg state as a bar and a phase word, in the words (and the lower case) apt jobs show.
    private static func phase(_ word: String, removal: Bool) -> (Double, String)? {
        switch (word, removal) {
        case ("half-installed", false): return (20, APTPackagePhase.unpacking.word)
        case ("unpacked", false): return (50, "unpacked")
        case ("half-configured", false): return (75, APTPackagePhase.configuring.word)
        case ("triggers-awaited", _), ("triggers-pending", _): return (90, "waiting for triggers")
        case ("half-configured", true): return (30, APTPackagePhase.removing.word)
        case ("half-installed", true): return (60, "removing files")
        case ("installed", true): return (10, APTPackagePhase.preparingForRemoval.word)
        default: return nil
        }
    }
}
