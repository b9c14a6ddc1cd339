/// What `APTRepair` did to dpkg's database and what it left: the steps it ran with their
/// outcomes, and, when the root is still not consistent, why and the command that would fix it.
struct APTRepairOutcome: Sendable, Hashable {
    /// Each step as said, e.g. `dpkg --configure -a ran`, `apt-get -f install exited with status 100`.
    var steps: [String]
    /// Why the root is still broken (`dpkg --audit lists lab-rt`, apt-get check's `E:` line);
    /// `nil` when `dpkg --audit` is empty and `apt-get check` passes.
    var problem: String?
    /// The command an operator runs to repair it, with `APT_CONFIG` when the root is private.
    var fixCommand: String
    /// What the steps after a graceful stop found (`nil` after a forced one): nothing was broken,
    /// so nothing is said to be repaired.
    var afterGracefulStop: GracefulStopWork?
    /// `dpkg --audit` was clean: what is left is apt's dependencies only (apt-get check), as
    /// after a stop between two packages one of which needs the other at its own version.
    var dpkgConsistent = false
    /// The packages `apt-get check` named as having unmet dependencies, without their
    /// architecture, each with the first it named (`lab-app` → `Depends: lab-base (= 2.0) but
    /// 1.0 is installed`); empty when it passed.
    var unmet: [String: String] = [:]

    var leftBroken: Bool { problem != nil }

    /// `repaired: dpkg --audit is clean, apt-get check passes` (after a forced stop), `what the
    /// stop left pending is done: dpkg is consistent (…)` or `nothing was left pending: dpkg is
    /// consistent (…)` (after a graceful one), `dpkg is left broken: run
    /// `FIX` to repair it; WHY`, or, with dpkg's audit clean, `apt's dependencies are left
    /// unmet (dpkg is consistent): run `FIX` to repair them; WHY`: the status text and the log
    /// line.
    var verdict: String {
        if let problem, dpkgConsistent {
            return "apt's dependencies are left unmet (dpkg is consistent): run `\(fixCommand)` to repair them; \(problem)"
        }
        if let problem { return "dpkg is left broken: run `\(fixCommand)` to repair it; \(problem)" }
        switch afterGracefulStop {
        case .finishedPending?: return "what the stop left pending is done: " + Self.consistent
        case .nothingPending?: return "nothing was left pending: " + Self.consistent
        case nil: return "repaired: dpkg --audit is clean, apt-get check passes"
        }
    }

    private static let consistent = "dpkg is consistent (dpkg --audit is clean, apt-get check passes)"

    /// An update's reason: `context` (what cut it, what it was left as), the steps, then the
    /// verdict; a broken root's verdict comes first, since the monitor's status column shows
    /// only the start of a reason.
    func reason(after context: String) -> String {
        let told = told(after: context)
        return leftBroken ? verdict + "; " + told : told + "; " + verdict
    }

    /// An update's reason when the verdict is said on other updates (`others`: the packages whose
    /// dependencies the stop left unmet): `context`, the steps, and where the verdict is.
    func reason(after context: String, verdictOn others: [String]) -> String {
        told(after: context)
            + "; apt's dependencies of \(others.joined(separator: ", ")) are left unmet (see \(others.count == 1 ? "its result" : "their results"))"
    }

    /// `context` and the steps, as every reason says them.
    private func told(after context: String) -> String {
        [context, steps.joined(separator: ", then ")].filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
