/// What `RevertTimer.schedule` did with a window's deadline, for the line that says who
/// reverts the run.
enum RevertTimerOutcome: Sendable, Hashable {
    /// systemd holds the deadline in this timer unit (`installtop-revert-RUN-ID.timer`).
    case scheduled(unit: String)
    /// systemd does not run this machine (a container, a chroot): nothing was scheduled.
    case systemdNotRunning
    /// systemd runs, but `systemd-run` refused or could not be run: why, in one line.
    case failed(String)

    /// Who reverts the run if the command waiting for it is stopped, after `if this command is
    /// stopped, `: the engine always; the timer too when there is one. A reboot drops the timer:
    /// then the run is reverted by an engine that records into `historyDatabase` when it starts,
    /// which installtop.service (enabled) is only for its own history, `serviceHistory`.
    func whoReverts(run: Int64, historyDatabase: String, serviceHistory: String = SystemdUnit.serviceHistoryPath()) -> String {
        let engine = "the engine (installtop serve) recording into \(historyDatabase)"
        switch self {
        case .scheduled(let unit):
            let afterReboot = RevertTimer.canonical(historyDatabase) == RevertTimer.canonical(serviceHistory)
                ? "\(SystemdUnit.name) (once enabled: systemctl enable installtop) reverts it at its start"
                : "only an engine recording into this history reverts it, at its start (\(SystemdUnit.name) records into \(serviceHistory))"
            return "systemd's timer \(unit).timer reverts it at the deadline (also with no engine running), as does \(engine); "
                + "a reboot drops the timer: then \(afterReboot)"
        case .systemdNotRunning:
            return "\(engine) reverts it at the deadline, or at its next start (systemd is not running here: no timer holds the deadline)"
        case .failed(let why):
            return "\(engine) reverts it at the deadline, or at its next start (no systemd timer holds the deadline: \(why))"
        }
    }
}
