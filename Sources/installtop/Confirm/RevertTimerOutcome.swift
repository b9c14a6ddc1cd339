/// What `RevertTimer.schedule` did with a window's deadline, for the line that says who
/// reverts the run.
enum RevertTimerOutcome: Sendable, Hashable {
    /// systemd holds the deadline in this timer unit (`installtop-revert-RUN-ID.timer`).
    case scheduled(unit: String)
    /// systemd does not run this machine (a container, a chroot): nothing was scheduled.
    case systemdNotRunning
    /// systemd runs, but its units could not be written or systemctl refused them: why, in one line.
    case failed(String)

    /// Who reverts the run if the command waiting for it is stopped, after `if this command is
    /// stopped, `: the engine that records into the history; systemd's timer too when there is
    /// one, which outlives the engine and a reboot.
    func whoReverts(run: Int64, historyDatabase: String) -> String {
        let engine = "the engine (installtop serve) recording into \(historyDatabase)"
        switch self {
        case .scheduled(let unit):
            return "systemd's timer \(unit).timer reverts it at the deadline, also with no engine running and across a reboot "
                + "(a deadline passed while the machine was down fires as it boots), as does \(engine)"
        case .systemdNotRunning:
            return "\(engine) reverts it at the deadline, or at its next start (systemd is not running here: no timer holds the deadline)"
        case .failed(let why):
            return "\(engine) reverts it at the deadline, or at its next start (no systemd timer holds the deadline: \(why))"
        }
    }
}
