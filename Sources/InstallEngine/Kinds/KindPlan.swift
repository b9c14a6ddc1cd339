/// What a job kind's planner gives for one job (`JobKind.plan`).
public enum KindPlan: Sendable {
    /// One job of these updates, run by `driver` (apt's transaction), or one child per update
    /// when `driver` is `nil`; `summary` (`3 to install · 1.9 kB to download`) is added to the
    /// job's name. No updates: nothing to do, and no job is queued.
    case job(updates: [Update], driver: (any JobDriver)?, summary: String)
    /// A session driver whose jobs are declared as it runs (rule 27: Ansible's hosts, a
    /// protocol driver's plans); it has no job number of its own.
    case session(any SessionDriver)
}
