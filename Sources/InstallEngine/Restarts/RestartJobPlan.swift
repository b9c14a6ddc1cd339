import RestartScan

/// The restart job (rule 32): which services it restarts, and one update per service,
/// `systemctl restart UNIT` (or `/etc/init.d/NAME restart` for a service an init script
/// started outside systemd), each checked afterwards to run. `installtop restart-services` and
/// the monitor's `R` both plan with this, so they restart the same services.
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

    /// How long, in seconds, a service whose restart exited 0 has to be seen running before its
    /// update fails: a daemon that forks, or a unit still `activating`, gets this long.
    public static let runningGrace = 5

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

    /// The job's updates: one per service, in order, the unit or path its id, each running
    /// `command(restarting:asInitScript:grace:)` for it (an init script's path is restarted by
    /// its script).
    public static func updates(restarting services: [String], grace: Int = runningGrace) -> [Update] {
        services.map { service in
            Update(id: service, title: "Restart \(service)",
                   installCommand: .argv(command(restarting: service, asInitScript: isInitScript(service), grace: grace)))
        }
    }

    /// The argv that restarts `service` and checks that it runs: `systemctl restart UNIT`, or
    /// for an init script `SCRIPT restart` with `SYSTEMCTL_SKIP_REDIRECT` (and the older
    /// `_SYSTEMCTL_SKIP_REDIRECT`) set, so that on a systemd host the script restarts (and
    /// reports the status of) the daemon it started itself instead of handing over to a unit
    /// that never ran it.
    ///
    /// A restart that exits non-zero ends the update with its status. One that exits 0 is then
    /// polled every 0.2 s, for `grace` seconds, until the service runs: a unit once `systemctl
    /// is-active UNIT` succeeds; an init script's service once a pid file of it under the
    /// script's root's `run/` (`run/NAME.pid`, `run/NAMEd.pid`, `run/NAME/*.pid`, `run/NAME/pid`,
    /// `run/*/NAME.pid`, as the scan finds them) names a live process, or, with no such file,
    /// once `SCRIPT status` exits 0. When the grace ends first the update exits 1 with an `error`
    /// line on the progress channel saying what showed it: "restart exited 0, but `systemctl
    /// is-active nginx.service` says failed", "restart exited 0, but the pid file /run/redis.pid
    /// names 1234, which is not running".
    public static func command(restarting service: String, asInitScript: Bool, grace: Int = runningGrace) -> [String] {
        ["/bin/sh", "-c", script, scriptName, asInitScript ? "init-script" : "unit", service, String(grace)]
    }

    /// The service an update restarts: its id, when its command is the one `command(restarting:…)`
    /// makes for it; `nil` for any other update.
    public static func service(restartedBy update: Update) -> String? {
        guard case .argv(let arguments)? = update.installCommand, arguments.count == 7, arguments[2] == script,
              arguments[3] == scriptName, arguments[5] == update.id
        else { return nil }
        return update.id
    }

    /// The services of a job's `updates` whose restart ran and did not succeed (`results` in the
    /// same order): failed (it exited non-zero, or exited 0 and was not seen running) or
    /// aborted while it ran, each with its update's reason. Updates that restart nothing, or
    /// never started, give none.
    public static func failedRestarts(of updates: [Update], results: [UpdateInstallationResult]) -> [FailedRestart] {
        zip(updates, results).compactMap { update, result in
            guard let service = service(restartedBy: update), result.startedAt != nil,
                  [.failed, .aborted].contains(result.resultCode)
            else { return nil }
            return FailedRestart(service: service, reason: result.reason ?? "restart \(result.resultCode)")
        }
    }

    /// `$0` of the script, as `ps` shows it.
    private static let scriptName = "installtop-restart"

    /// The restart and the check (`command(restarting:…)`), for `/bin/sh -c` with the kind
    /// (`unit` or `init-script`), the service and the grace as `$1`…`$3`. POSIX sh: dash and
    /// busybox run it; `sleep 0.2` falls back to `sleep 1` where fractions are refused.
    private static let script = #"""
        kind=$1 service=$2 grace=$3
        if [ "$kind" = unit ]; then
            systemctl restart "$service" || exit
        else
            export SYSTEMCTL_SKIP_REDIRECT=1 _SYSTEMCTL_SKIP_REDIRECT=1
            "$service" restart || exit
        fi
        runs() {
            if [ "$kind" = unit ]; then
                state=$(systemctl is-active "$service" 2>/dev/null) && return 0
                why="\`systemctl is-active $service\` says ${state:-nothing}"
                return 1
            fi
            name=${service##*/}
            run=${service%/etc/init.d/*}/run
            found=
            for file in "$run/$name.pid" "$run/${name}d.pid" "$run/$name"/*.pid "$run/$name/pid" "$run"/*/"$name.pid"; do
                [ -f "$file" ] || continue
                found=$file
                pid=$(head -n 1 "$file" 2>/dev/null | tr -d ' \t\r')
                case $pid in
                '' | *[!0-9]*) why="the pid file $file names no process" ;;
                *) [ -d "/proc/$pid" ] && return 0
                   why="the pid file $file names $pid, which is not running" ;;
                esac
            done
            [ -n "$found" ] && return 1
            "$service" status >/dev/null 2>&1 && return 0
            why="\`$service status\` exited $?"
            return 1
        }
        # Whole seconds: one more, so that the grace is never cut short by the second it began in.
        deadline=$(($(date +%s) + grace + 1))
        until runs; do
            if [ "$(date +%s)" -ge "$deadline" ]; then
                reason="restart exited 0, but $why"
                if [ -n "${INSTALLTOP_PROGRESS_FD:-}" ]; then printf 'error %s\n' "$reason" >&3; else printf '%s\n' "$reason" >&2; fi
                exit 1
            fi
            sleep 0.2 2>/dev/null || sleep 1
        done
        """#
}
