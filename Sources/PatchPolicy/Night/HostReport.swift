/// What a runner reports of a host's step: how it ended and, when the host needed a reboot,
/// what became of it (`rebooted, back after 42 s`, `needs a reboot, left for the operator: …`),
/// which the night's stamp keeps for `--status` and `notify:`.
public struct HostReport: Sendable, Hashable {
    public let outcome: HostOutcome
    /// `nil` when the host needed no reboot, or its need could not be known.
    public let reboot: String?

    public init(outcome: HostOutcome, reboot: String? = nil) {
        self.outcome = outcome
        self.reboot = reboot
    }
}
