/// One health check's result at one moment (before or after a commit-confirmed job): a command
/// that passed or failed, or a set of things seen (failed units, listening ports).
public struct HealthObservation: Sendable, Hashable, Codable {
    /// The check's name: `failed units`, `listening TCP ports`, `sshd -t`, an operator check's
    /// path or `--check` command.
    public var check: String
    /// A command check: whether it passed; for a set check, always true.
    public var passed: Bool
    /// For a set check, what was seen (sorted); empty for a command check.
    public var items: [String]
    /// Why a command failed (its status and first output line), or why the check was not run
    /// (`systemd is not running`); empty otherwise.
    public var detail: String
    /// Whether the check could run at all; one that could not is never compared.
    public var ran: Bool
    /// A set check (failed units, ports): `items` is what it saw, and `passed` means nothing.
    public var isSet: Bool

    public init(check: String, passed: Bool, items: [String] = [], detail: String = "", ran: Bool = true, isSet: Bool = false) {
        self.check = check
        self.passed = passed
        self.items = items
        self.detail = detail
        self.ran = ran
        self.isSet = isSet
    }

    /// A set check's observation: `items` seen, sorted and without repeats.
    public static func seen(_ check: String, _ items: [String]) -> HealthObservation {
        HealthObservation(check: check, passed: true, items: Array(Set(items)).sorted(), isSet: true)
    }

    /// A check that could not run, with why (`systemd is not running`).
    public static func notRun(_ check: String, because reason: String) -> HealthObservation {
        HealthObservation(check: check, passed: true, detail: reason, ran: false)
    }

    /// How it reads in a regression's before and after: `passed`, `failed: …`, or the items.
    public var text: String {
        guard ran else { return "not checked: \(detail)" }
        if isSet { return items.isEmpty ? "none" : items.joined(separator: " ") }
        return passed ? "passed" : "failed" + (detail.isEmpty ? "" : ": \(detail)")
    }
}
