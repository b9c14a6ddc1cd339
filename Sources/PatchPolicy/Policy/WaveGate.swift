import InstallEngine

/// What lets the next wave start: every host of the wave ended, its package job armed for
/// `confirm` (commit-confirmed, Documentation/COMMIT-CONFIRMED.md); none reverted and at least
/// one confirmed healthy (a host that failed or was unreachable counts against the failure
/// budget instead); then `command`, when there is one, exiting 0. `NightMachine` applies it.
public struct WaveGate: Sendable, Hashable {
    /// The confirmation deadline each host's job is armed with (`--confirm`), in seconds.
    public let confirm: Int
    /// Run on the admin machine after the wave's hosts are confirmed; `nil` for none.
    public let command: UpdateCommand?
}
