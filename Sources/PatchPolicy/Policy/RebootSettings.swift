/// Reboots during a night: only hosts that need one, inside the window, at most `atOnce` at a
/// time, never the admin machine.
public struct RebootSettings: Sendable, Hashable {
    /// `systemctl reboot`: what a host runs to reboot unless the policy says otherwise.
    public static let defaultCommand = "systemctl reboot"
    /// Ten minutes: how long a rebooted host may take to answer again unless the policy says otherwise.
    public static let defaultTimeout = 600

    /// Whether hosts that need a reboot are rebooted at all.
    public let enabled: Bool
    /// At least 1; 1 unless the policy says otherwise.
    public let atOnce: Int
    /// The command line the host's shell runs over ssh to reboot it. Its ssh session may end
    /// with the host (exit 255) or be cut at its deadline; any other non-zero status means the
    /// host did not start rebooting.
    public let command: String
    /// Seconds a rebooted host has, from its reboot command, to answer again with a new boot;
    /// one that does not stops the night.
    public let timeout: Int

    public init(enabled: Bool = true, atOnce: Int = 1, command: String = Self.defaultCommand, timeout: Int = Self.defaultTimeout) {
        self.enabled = enabled
        self.atOnce = atOnce
        self.command = command
        self.timeout = timeout
    }
}
