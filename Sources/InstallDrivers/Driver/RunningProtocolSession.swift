import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization

/// A protocol driver's process as it runs: its fd-3 lines decoded and passed through
/// `ProtocolSessionState`, its stop requests written to fd 4.
final class RunningProtocolSession: RunningSession {
    private struct State {
        var sessionState = ProtocolSessionState()
        var process: ChildProcess?
        var interrupted = false
        /// The last lines the driver printed itself, for a driver that ends without a plan.
        var recentOutput: [String] = []
        /// Why the first line that was not the protocol was refused.
        var firstProtocolError: String?
    }

    private let reporter: any SessionReporter
    private let interruptGrace: Duration
    private let state = Mutex(State())
    private let slot = OutcomeSlot()
    private static let recentOutputLimit = 40

    init(reporter: any SessionReporter, interruptGrace: Duration) {
        self.reporter = reporter
        self.interruptGrace = interruptGrace
    }

    func attach(_ process: ChildProcess) {
        state.withLock { $0.process = process }
        process.whenEnded { [slot] outcome in slot.settle(outcome) }
    }

    /// The driver's own last lines (stdout and stderr), oldest first, and its start failure.
    var recentOutput: [String] {
        state.withLock { state in
            if case .failedToStart(let reason)? = slot.settledOutcome { return state.recentOutput + [reason] }
            return state.recentOutput
        }
    }

    var protocolErrorSummary: String? {
        state.withLock { state in
            let count = state.sessionState.protocolErrors
            guard count > 0 else { return nil }
            let lines = count == 1 ? "1 line was" : "\(count) lines were"
            return "\(lines) not driver protocol \(DriverProtocol.version)" + (state.firstProtocolError.map { "; the first: \($0)" } ?? "")
        }
    }

    // MARK: - The driver's lines (its sinks, on the poller's thread, in order)

    /// One line of the driver protocol (fd 3).
    func protocolLine(_ line: UnsafeBufferPointer<UInt8>) {
        guard !line.isEmpty else { return }
        let reports = state.withLock { state -> [SessionReport] in
            do {
                return state.sessionState.receive(try DriverMessage.decode(Array(line)))
            } catch {
                if state.firstProtocolError == nil { state.firstProtocolError = "\(error)" }
                return state.sessionState.misread()
            }
        }
        for item in reports { reporter.report(item) }
    }

    /// One line the driver printed itself (stdout or stderr).
    func outputLine(_ line: String) {
        state.withLock { state in
            state.recentOutput.append(line)
            if state.recentOutput.count > Self.recentOutputLimit { state.recentOutput.removeFirst() }
        }
    }

    // MARK: - RunningSession

    func stop(job: String) {
        send(#"{"type":"stop","job":"# + JSONObject.quoted(job) + "}")
    }

    func stopAll() {
        send(#"{"type":"stop"}"#)
    }

    /// SIGINT to the driver's process group (what Ctrl-C does), then, if it is still there
    /// after the grace (timed by the engine's timers, on the reactor), every process of it.
    func kill() {
        let process = state.withLock { state -> ChildProcess? in
            guard !state.interrupted else { return nil }
            state.interrupted = true
            return state.process
        }
        guard let process else { return }
        process.interruptGroup()
        EngineTimers.shared.schedule(after: interruptGrace) { _ = process.killTree() }
    }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }

    /// `handler` runs on the thread that ends the process (the child's poller), after every
    /// line it read: no task waits for the end.
    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        slot.whenSettled(handler)
    }

    private func send(_ line: String) {
        let process = state.withLock { $0.process }
        process?.sendControl(line)
    }
}
