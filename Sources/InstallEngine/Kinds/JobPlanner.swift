/// The one planning dispatch of `run`, `demo`, `submit` and `serve`: a job of commands goes to
/// the queue as it is; a job of a kind is planned by its kind.
public enum JobPlanner {
    /// Plans one job. Planning may run a tool (apt's simulation, `ansible-playbook
    /// --list-hosts`) for seconds: call it off any thread that must stay responsive.
    /// - Throws: the kind's refusal, with how the job reads.
    public static func plan(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool, kind: JobKindSpec?)
        throws(JobPlanRefusal) -> PlannedJob {
        guard let kind else {
            return .job(name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure, driver: nil)
        }
        let plan: KindPlan
        do {
            plan = try kind.plan()
        } catch {
            throw JobPlanRefusal(subject: kind.description, reason: "\(error)")
        }
        switch plan {
        case .session(let driver):
            return .session(driver)
        case .job(let updates, let driver, let summary):
            guard !updates.isEmpty else { return .nothingToDo(reason: "\(kind.description): nothing to do") }
            return .job(name: "\(name) · \(summary)", operation: kind.operation ?? operation, updates: updates,
                        stopOnFailure: stopOnFailure, driver: driver)
        }
    }
}
