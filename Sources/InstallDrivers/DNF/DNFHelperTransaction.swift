import Foundation
import InstallEngine
import Synchronization

/// The dnf transaction of a dnf job run without a separate plan (`installtop dnf … --yes`): dnf
/// resolves once. The helper starts in `run` mode before its job exists; its items and
/// `planned` are the plan (rule 22: said before anything is fetched or changed), and every
/// later line is kept, in order, until the job's driver takes the helper over (`DNFDriver`,
/// through `attach`).
///
/// Until rpm's transaction starts nothing has changed: `stop` then ends the helper at once.
/// When the helper ends before its plan (a refusal, a stop), `waitForBeginning` says so with
/// its exit and its refusal.
public final class DNFHelperTransaction: Sendable {
    /// How the transaction began.
    public enum Beginning: Sendable {
        /// The helper said the plan (`planned`); it fetches and runs rpm now.
        case plan(DNFPlan)
        /// The helper ended before its plan, having changed nothing: its exit, and its refusal
        /// when it said one (`nil`: it said none, its last lines of stderr are in `stderr`).
        case ended(UpdateRunOutcome, refusal: DNFPlanError?, stderr: String)
    }

    private struct State {
        var reading: DNFPlanReading
        /// The helper's process and every line for the driver, until it takes them.
        var handOff = ToolHandOff()
        var stderr: [String] = []
        var beginning: Beginning?
    }

    public let job: DNFJob
    private let state: Mutex<State>
    private let begun = DispatchSemaphore(value: 0)

    private init(job: DNFJob) {
        self.job = job
        state = Mutex(State(reading: DNFPlanReading(job: job)))
    }

    /// Starts `job`'s transaction with `helper` and returns at once; with a `keeper`, the helper
    /// keeps what the transaction takes away into its folder (the job's driver records it).
    public static func start(_ job: DNFJob, helper: DNFHelper, keeper: (any DNFVersionKeeping)? = nil,
                             backend: ProcessBackend = ProcessBackend()) -> DNFHelperTransaction {
        let transaction = DNFHelperTransaction(job: job)
        let spec = ChildSpec(command: .argv(helper.arguments(.run, job: job, keepingInto: keeper?.folder)), environment: helper.environment)
        let process = backend.startChild(spec, sinks: ChildSinks(
            stdout: .text { transaction.take(ToolLine(stream: .stdout, text: $0)) },
            stderr: .text { transaction.take(ToolLine(stream: .stderr, text: $0)) },
            channel: .text { transaction.take(ToolLine(stream: nil, text: $0)) },
            afterReads: { transaction.state.withLock { $0.handOff.afterReads }?() }, atMostEvery: DNFTranslator.handOnInterval))
        transaction.state.withLock { $0.handOff.process = process }
        Task.detached(executorPreference: EngineTaskExecutor.shared) {
            let outcome = await process.outcome
            transaction.begin { state in .ended(outcome, refusal: state.reading.refusal, stderr: state.stderr.suffix(3).joined(separator: "\n")) }
        }
        return transaction
    }

    /// Blocks until the helper has said its plan or ended before it.
    public func waitForBeginning() -> Beginning {
        begun.wait()
        begun.signal()
        guard let beginning = state.withLock({ $0.beginning }) else { preconditionFailure("signalled before it began") }
        return beginning
    }

    /// Asks the helper to stop: SIGINT, which ends it at once before rpm's transaction and is
    /// deferred to the transaction's end once rpm runs.
    public func stop() {
        state.withLock { state in
            state.handOff.stopRequested = true
            return state.handOff.process
        }?.interrupt()
    }

    /// Whether `stop` was called.
    public var stopRequested: Bool { state.withLock { $0.handOff.stopRequested } }

    /// Whether no driver has taken the helper over yet (`takeOver`).
    var canBeTakenOver: Bool { state.withLock { $0.handOff.canBeTakenOver } }

    /// The helper's process, for the one driver that takes the transaction over; `nil` after the
    /// first call (a retry runs a transaction of its own).
    func takeOver() -> ChildProcess? {
        state.withLock { $0.handOff.takeOver() }
    }

    /// Hands every line kept so far to `receiver`, in order, then each later line as it comes;
    /// `afterReads` after those kept, then at the end of each of the poller's wake-ups.
    func attach(_ receiver: @escaping @Sendable (ToolLine) -> Void, afterReads: @escaping @Sendable () -> Void) {
        state.withLock { $0.handOff.attach(receiver, afterReads: afterReads) }
        afterReads()
    }

    // MARK: - The helper's lines (on the poller's thread)

    private func take(_ line: ToolLine) {
        let planned: DNFPlan? = state.withLock { state in
            if state.handOff.handOn(line) { return nil }
            state.handOff.keep(line)
            guard state.beginning == nil else { return nil }
            if line.stream == .stderr { state.stderr.append(line.text) }
            guard line.stream == nil else { return nil }
            return state.reading.read(line.text)
        }
        if let planned { begin { _ in .plan(planned) } }
    }

    private func begin(_ make: (State) -> Beginning) {
        state.withLock { state in
            guard state.beginning == nil else { return }
            state.beginning = make(state)
            begun.signal()
        }
    }
}
