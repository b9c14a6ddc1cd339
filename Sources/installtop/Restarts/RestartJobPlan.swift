import InstallEngine
import RestartScan

/// The restart job (rule 32): which services it restarts, and one update per service,
/// `systemctl restart UNIT`, on the command-job machinery.
enum RestartJobPlan {
    /// The services to restart and those left out.
    struct Selection: Equatable {
        var restart: [String]
        /// Listed by the scan but not restarted unless named (`isLeftOutUnlessNamed`).
        var leftOut: [String]
    }

    /// Services that must not be restarted blindly: the SSH server the operator may be on,
    /// the display manager, dbus, and systemd itself (PID 1 and its own `systemd-*` services).
    static func isLeftOutUnlessNamed(_ unit: String) -> Bool {
        let exact: Set = [
            "ssh.service", "sshd.service", "display-manager.service", "gdm.service", "gdm3.service", "lightdm.service",
            "sddm.service", "xdm.service", "dbus.service", "dbus-broker.service", "init.scope",
        ]
        return exact.contains(unit) || unit.hasPrefix("systemd-")
    }

    /// With no `named` units, the scan's services but those left out unless named; with some,
    /// exactly those (the operator named them), and nothing is left out.
    static func select(_ advice: RestartAdvice, named: [String]) -> Selection {
        guard named.isEmpty else {
            var restart: [String] = []
            for unit in named where !restart.contains(unit) { restart.append(unit) }
            return Selection(restart: restart, leftOut: [])
        }
        let services = advice.services
        return Selection(restart: services.filter { !isLeftOutUnlessNamed($0) }, leftOut: services.filter(isLeftOutUnlessNamed))
    }

    /// The job: one update per unit, run as `systemctl restart UNIT`.
    static func job(restarting units: [String]) -> RunnableJob {
        let updates = units.map { unit in
            Update(id: unit, title: "Restart \(unit)", installCommand: .argv(["systemctl", "restart", unit]))
        }
        return RunnableJob(name: "Restart services", operation: .install, updates: updates)
    }
}
