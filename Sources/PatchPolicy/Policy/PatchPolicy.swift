import InstallEngine

/// A patch night's policy (Documentation/POLICY.md) as read and checked by `PolicyLoader`: which
/// hosts, when, in which waves, what stops the night, which updates, and what runs around it.
public struct PatchPolicy: Sendable {
    /// The policy file's path as given.
    public let path: String
    public let hosts: PolicyHosts
    /// The zone `windows` and `blackouts` are written in.
    public let zone: ZoneRules
    /// Never empty.
    public let windows: [PatchWindow]
    public let blackouts: [BlackoutPeriod]
    public let waves: WavePlan
    public let gate: WaveGate
    public let failureBudget: FailureBudget
    public let age: AgeGate
    public let packages: PackageSelection
    public let hostCommands: HostCommands
    public let reboot: RebootSettings
    /// Run with a JSON summary before the window, after each wave and on a stop; `nil` for none.
    public let notify: UpdateCommand?
    /// What may still work when the night runs: a command's program not on `PATH` now.
    public internal(set) var warnings: [ManifestError] = []

    public init(path: String, hosts: PolicyHosts, zone: ZoneRules, windows: [PatchWindow], blackouts: [BlackoutPeriod], waves: WavePlan,
                gate: WaveGate, failureBudget: FailureBudget, age: AgeGate, packages: PackageSelection, hostCommands: HostCommands,
                reboot: RebootSettings, notify: UpdateCommand?) {
        self.path = path
        self.hosts = hosts
        self.zone = zone
        self.windows = windows
        self.blackouts = blackouts
        self.waves = waves
        self.gate = gate
        self.failureBudget = failureBudget
        self.age = age
        self.packages = packages
        self.hostCommands = hostCommands
        self.reboot = reboot
        self.notify = notify
    }

    /// When the windows open, in the policy's zone.
    public var schedule: WindowSchedule { WindowSchedule(windows: windows, blackouts: blackouts, zone: zone) }

    /// The policy's hosts as waves (`WavePlan.waves(of:)`).
    public var hostWaves: [Wave] { waves.waves(of: hosts.names) }
}
