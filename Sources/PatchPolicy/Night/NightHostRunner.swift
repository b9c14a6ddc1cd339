/// The seam between a night's machine and the hosts: what performs `NightAction.startHost`,
/// `recoverHost` and `evaluateGate`. The rollout code that reaches hosts over ssh (armed package
/// jobs, confirmations, reboots) fills it in; tests give a scripted one.
public protocol NightHostRunner: Sendable {
    /// Patches `host` of wave `wave` (0-based) as the policy says and reports how it ended.
    func patch(host: String, wave: Int) async -> HostOutcome

    /// `patch(host:wave:)` with what became of the host's reboot; by default the outcome alone,
    /// for runners that reboot nothing.
    func patchReporting(host: String, wave: Int) async -> HostReport

    /// How `host`'s step (wave `wave`, 0-based), which a stamp says was running when the admin
    /// process stopped, ended, from what its engine recorded; starts nothing on the host. The
    /// `after` command runs, as for a host patched in one go: the stopped process ran `before`
    /// (a host drained from its load balancer is put back).
    func recover(host: String, wave: Int) async -> HostOutcome

    /// Runs the gate's command for wave `wave` after `confirmed` were confirmed: passed, or
    /// failed with why.
    func evaluateGate(wave: Int, confirmed: [String]) async -> (passed: Bool, reason: String)
}

extension NightHostRunner {
    public func patchReporting(host: String, wave: Int) async -> HostReport {
        HostReport(outcome: await patch(host: host, wave: wave))
    }
}
