import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The systemd unit that runs `installtop serve` as the machine's install engine, printed by
/// `installtop serve --systemd-unit`.
enum SystemdUnit {
    /// Where the system service keeps its history (systemd's `StateDirectory=installtop`).
    static let historyPath = "/var/lib/installtop/history.sqlite3"
    /// The service's history as `installtop history` looks for it: `INSTALLTOP_SERVICE_HISTORY`
    /// when that is an absolute path (a service installed elsewhere, or a test), else
    /// `historyPath`.
    static func serviceHistoryPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["INSTALLTOP_SERVICE_HISTORY"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? historyPath
    }

    /// The unit's name as the Debian package installs it (`Scripts/build-deb`) and systemctl
    /// takes it.
    static let name = SocketLocation.machineUnit

    /// Where it listens: the machine's socket, which clients with no engine of their own find
    /// (`SocketLocation`).
    static let socketPath = SocketLocation.machineSocket

    /// The unit's text, with `executable` (the running binary's path) in `ExecStart`.
    static func text(executable: String) -> String {
        """
        # installtop serve: the install engine as a system service.
        # Install: installtop serve --systemd-unit > /etc/systemd/system/installtop.service
        #          systemctl daemon-reload && systemctl enable --now installtop
        # Use (as root): installtop submit FILE, installtop attach, installtop status
        # To see installs others start (apt-get, unattended-upgrades): installtop hooks install, installtop watch
        [Unit]
        Description=installtop install engine
        Documentation=man:installtop(1)

        [Service]
        Type=simple
        ExecStart=\(executable) serve --socket \(socketPath) --history-db \(historyPath)
        StateDirectory=installtop
        # The history holds every install's output tail: root's alone.
        StateDirectoryMode=0700
        # SIGTERM to installtop only: it aborts running updates gracefully (each one's abort
        # grace, 10 s by default) and records their results; signalling the whole group
        # instead would cut the installs themselves. SIGKILL for everything after the timeout.
        KillMode=mixed
        TimeoutStopSec=5min
        Restart=on-failure

        [Install]
        WantedBy=multi-user.target

        """
    }
}
