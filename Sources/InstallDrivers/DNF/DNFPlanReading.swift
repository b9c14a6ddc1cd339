/// A dnf job's plan as the helper says it, line by line, before anything is fetched: its
/// `item`s, then `planned` (the plan), or an `error` (the refusal). The planner reads a `plan`
/// helper's output with it, `DNFHelperToolKind` a running helper's lines.
struct DNFPlanReading {
    let job: DNFJob
    private var items: [DNFPlanItem] = []
    /// The helper's refusal, in its words and with what to do (`DNFPlanner.hint`).
    private(set) var refusal: DNFPlanError?

    init(job: DNFJob) {
        self.job = job
    }

    /// Reads one line of the helper's events; the plan once `line` is its `planned`, else `nil`.
    mutating func read(_ line: String) -> DNFPlan? {
        switch DNFHelperEvent(line: line) {
        case .item(let item): items.append(item)
        case .error(let kind, let message): refusal = DNFPlanError(kind: kind, message: message + DNFPlanner.hint(kind))
        // What is here already (a local repository, an undo's kept rpms) is not fetched: dnf
        // says "Total size" then, not "Total download size".
        case .planned(_, let download, let already): return DNFPlan(job: job, items: items, downloadSize: max(0, download - already))
        default: break
        }
        return nil
    }
}
