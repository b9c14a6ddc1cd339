/// Reboots during a night: only hosts that need one, inside the window, at most `atOnce` at a
/// time, never the admin machine.
public struct RebootSettings: Sendable, Hashable {
    /// Whether hosts that need a reboot are rebooted at all.
    public let enabled: Bool
    /// At least 1; 1 unless the policy says otherwise.
    public let atOnce: Int

    public init(enabled: Bool = true, atOnce: Int = 1) {
        self.enabled = enabled
        self.atOnce = atOnce
    }
}
