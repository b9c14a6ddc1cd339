import InstallEngine

/// How installtop's dnf helper, started in `run` mode before its job exists, is read until its
/// plan (`DNFHelperTransaction`, a `PreStartedTool` of this kind): its items and `planned` are
/// the plan, its stderr is kept for an end before it, and every line is kept, in order, for the
/// driver.
public struct DNFHelperToolKind: PreStartedToolLines {
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
    public struct Reading: Sendable {
        var plan: DNFPlanReading
        var stderr: [String] = []
    }

    /// The job the helper runs.
    let job: DNFJob

    func ended(_ outcome: UpdateRunOutcome, of tool: PreStartedTool<Self>) {
        tool.begin { state in .ended(outcome, refusal: state.reading.plan.refusal, stderr: state.reading.stderr.suffix(3).joined(separator: "\n")) }
    }

    // MARK: - The helper's lines (on the poller's thread)

    func take(_ line: ToolLine, of tool: PreStartedTool<Self>) {
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
