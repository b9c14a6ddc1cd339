import RestartScan

/// The restart job (rule 32): which services it restarts, and one update per service,
/// `systemctl restart UNIT` (or `/etc/init.d/NAME restart` for a service an init script
/// started outside systemd). `installtop restart-services` and the monitor's `R` both plan
/// with this, so they restart the same services.
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
    /// the display manager, dbus, and systemd itself (PID 1 and its own `systemd-*` services);
    /// an init script of the same name (`/etc/init.d/ssh`) counts as its unit.
    public static func isLeftOutUnlessNamed(_ service: String) -> Bool {
        let exact: Set = [
            "ssh.service", "sshd.service", "display-manager.service", "gdm.service", "gdm3.service", "lightdm.service",
            "sddm.service", "xdm.service", "dbus.service", "dbus-broker.service", "init.scope",
        ]
        let unit = isInitScript(service) ? service.dropFirst(ProcessOwner.initScriptFolder.count) + ".service" : Substring(service)
        return exact.contains(String(unit)) || unit.hasPrefix("systemd-")
    }

    /// Whether `service` is an init script's path (`/etc/init.d/nginx`) rather than a unit.
    public static func isInitScript(_ service: String) -> Bool {
        service.hasPrefix(ProcessOwner.initScriptFolder) && service.count > ProcessOwner.initScriptFolder.count
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

    /// The job's updates: one per service, in order, run as `systemctl restart UNIT`, or as
    /// `/etc/init.d/NAME restart` for an init script's path, with `SYSTEMCTL_SKIP_REDIRECT`
    /// (and the older `_SYSTEMCTL_SKIP_REDIRECT`) set so that on a systemd host the script restarts the daemon it started itself instead
    /// of handing over to a unit that never ran it; the unit or path is the update's id.
    public static func updates(restarting services: [String]) -> [Update] {
        services.map { service in
            let command = isInitScript(service)
                ? ["env", "SYSTEMCTL_SKIP_REDIRECT=1", "_SYSTEMCTL_SKIP_REDIRECT=1", service, "restart"] : ["systemctl", "restart", service]
            return Update(id: service, title: "Restart \(service)", installCommand: .argv(command))
        }
    }
}
