import InstallEngine

/// What lets the next wave start: every host of the wave patched with its package job armed for
/// `confirm` (commit-confirmed, Documentation/COMMIT-CONFIRMED.md) and confirmed healthy, none
/// reverted, and then `command`, when there is one, exiting 0.
public struct WaveGate: Sendable, Hashable {
    /// The confirmation deadline each host's job is armed with (`--confirm`), in seconds.
    public let confirm: Int
    /// Run on the admin machine after the wave's hosts are confirmed; `nil` for none.
    public let command: UpdateCommand?

    public init(confirm: Int, command: UpdateCommand?) {
        self.confirm = confirm
        self.command = command
    }
}
