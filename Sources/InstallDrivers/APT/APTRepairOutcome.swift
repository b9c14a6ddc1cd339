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

    var leftBroken: Bool { problem != nil }

    /// `repaired: dpkg --audit is clean, apt-get check passes`, or `dpkg is left broken: WHY;
    /// run `FIX` to repair it`: the status text, the log line and the end of the reason.
    var verdict: String {
        guard let problem else { return "repaired: dpkg --audit is clean, apt-get check passes" }
        return "dpkg is left broken: \(problem); run `\(fixCommand)` to repair it"
    }

    /// The steps and the verdict, for an update's reason.
    var reason: String {
        (steps.isEmpty ? "" : steps.joined(separator: ", then ") + "; ") + verdict
    }
}
