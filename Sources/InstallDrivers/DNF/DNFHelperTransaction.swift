#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization
import Dispatch

/// The dnf transaction of a dnf job run without a separate plan (`installtop dnf … --yes`): dnf
/// resolves once. The helper starts in `run` mode before its job exists; its items and
/// `planned` are the plan (rule 22: said before anything is fetched or changed), and every
/// later line is kept, in order, until the job's driver takes the helper over (`DNFDriver`,
/// through `LineDriverRunner.takingOver`): a `PreStartedTool` of this kind.
///
/// Until rpm's transaction starts nothing has changed: `stop` then ends the helper at once.
/// When the helper ends before its plan (a refusal, a stop), `waitForBeginning` says so with
/// its exit and its refusal.
public final class DNFHelperTransaction: Sendable, PreStartedToolKind {
    /// How the transaction began.
    public enum Beginning: Sendable {
        /// The helper said the plan (`planned`); it fetches and runs rpm now.
        case plan(DNFPlan)
        /// The helper ended before its plan, having changed nothing: its exit, and its refusal
        /// when it said one (`nil`: it said none, its last lines of stderr are in `stderr`).
        case ended(UpdateRunOutcome, refusal: DNFPlanError?, stderr: String)
    }

    typealias Translator = DNFTranslator

    /// What the helper says before its plan, as the transaction reads it.
    struct Reading: Sendable {
        var plan: DNFPlanReading
        var stderr: [String] = []
    }

    public let job: DNFJob
    /// The helper's process, its lines for the driver until it takes them, and its beginning.
    let tool: PreStartedTool<DNFHelperTransaction>

    private init(job: DNFJob) {
        self.job = job
        tool = PreStartedTool(reading: Reading(plan: DNFPlanReading(job: job)))
    }

    /// Starts `job`'s transaction with `helper` and returns at once; with a `keeper`, the helper
    /// keeps what the transaction takes away into its folder (the job's driver records it).
    public static func start(_ job: DNFJob, helper: DNFHelper, keeper: (any DNFVersionKeeping)? = nil,
                             backend: ProcessBackend = ProcessBackend()) -> DNFHelperTransaction {
        let transaction = DNFHelperTransaction(job: job)
        let spec = ChildSpec(command: .argv(helper.arguments(.run, job: job, keepingInto: keeper?.folder)), environment: helper.environment)
        transaction.tool.start(spec, for: transaction, backend: backend)
        return transaction
    }

    /// Blocks until the helper has said its plan or ended before it.
    public func waitForBeginning() -> Beginning {
        tool.waitForBeginning()
    }

    /// Asks the helper to stop: SIGINT, which ends it at once before rpm's transaction and is
    /// deferred to the transaction's end once rpm runs.
    public func stop() {
        tool.stop()
    }

    /// Whether `stop` was called.
    public var stopRequested: Bool { tool.stopRequested }

    func ended(_ outcome: UpdateRunOutcome) {
        tool.begin { state in .ended(outcome, refusal: state.reading.plan.refusal, stderr: state.reading.stderr.suffix(3).joined(separator: "\n")) }
    }

    // MARK: - The helper's lines (on the poller's thread)

    func take(_ line: ToolLine) {
        tool.withState { state in
            if state.handOff.handOn(line) { return }
            state.handOff.keep(line)
            guard state.beginning == nil else { return }
            if line.stream == .stderr { state.reading.stderr.append(line.text) }
            guard line.stream == nil, let planned = state.reading.plan.read(line.text) else { return }
            tool.begin(in: &state) { _ in .plan(planned) }
        }
    }
}
