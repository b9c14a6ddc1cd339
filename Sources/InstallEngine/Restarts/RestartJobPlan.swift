import RestartScan

/// The restart job (rule 32): which services it restarts, and one update per service,
/// `systemctl restart UNIT`. `installtop restart-services` and the monitor's `R` both plan
/// with this, so they restart the same units.
public enum RestartJobPlan {
    /// The services to restart and those left out.
    public struct Selection: Sendable, Hashable {
        public var restart: [String]
        /// Listed by the scan but not restarted unless named (`isLeftOutUnlessNamed`).
        public var leftOut: [String]

        public init(restart: [String], leftOut: [String]) {
            self.restart = restart
            self.leftOut = leftOut
        }
    }

    /// The job's name in the queue and the history.
    public static let jobName = "Restart services"

    /// Services that must not be restarted blindly: the SSH server the operator may be on,
    /// the display manager, dbus, and systemd itself (PID 1 and its own `systemd-*` services).
    public static func isLeftOutUnlessNamed(_ unit: String) -> Bool {
        let exact: Set = [
            "ssh.service", "sshd.service", "display-manager.service", "gdm.service", "gdm3.service", "lightdm.service",
            "sddm.service", "xdm.service", "dbus.service", "dbus-broker.service", "init.scope",
        ]
        return exact.contains(unit) || unit.hasPrefix("systemd-")
    }

    /// With no `named` units, the scan's services but those left out unless named; with some,
    /// exactly those (the operator named them), and nothing is left out.
    public static func select(_ advice: RestartAdvice, named: [String] = []) -> Selection {
        guard named.isEmpty else {
            var restart: [String] = []
            for unit in named where !restart.contains(unit) { restart.append(unit) }
            return Selection(restart: restart, leftOut: [])
        }
        let services = advice.services
        return Selection(restart: services.filter { !isLeftOutUnlessNamed($0) }, leftOut: services.filter(isLeftOutUnlessNamed))
    }

    /// The job's updates: one per unit, in order, run as `systemctl restart UNIT`; the unit
    /// is the update's id.
    public static func updates(restarting units: [String]) -> [Update] {
        units.map { unit in
            Update(id: unit, title: "Restart \(unit)", installCommand: .argv(["systemctl", "restart", unit]))
        }
    }
}
