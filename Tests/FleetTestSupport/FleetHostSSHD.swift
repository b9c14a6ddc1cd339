/// How one host's sshd runs, for a test whose package restarts it the way openssh-server's
/// postinst does: stop the running listener by its pid file, start sshd again with its
/// configuration (which fails when a drop-in is bad, leaving the host without a listener).
/// From `FleetTestHosts.sshd(host:)`, of a fleet made with `sshdDropIns: true`.
///
/// Every path is in the fleet's run folder, never in /etc or the machine's /run: the hosts share
/// this machine's filesystem, and a script that reached the machine's own sshd must find nothing
/// of it here.
public struct FleetHostSSHD: Sendable, Equatable {
    /// The sshd program (`/usr/sbin/sshd`).
    public let executable: String
    /// The host's `sshd_config`: it includes `dropInFolder/*.conf` before its own lines, so a
    /// drop-in's value wins (sshd keeps the first value it reads), as Debian's includes
    /// `/etc/ssh/sshd_config.d/*.conf`.
    public let configuration: String
    /// The host's own drop-in folder, empty at setup.
    public let dropInFolder: String
    /// Where the running listener writes its pid; sshd removes it when SIGTERM ends it.
    public let pidFile: String
    /// sshd's log (`-E`), which the harness's listener and a restarted one share.
    public let log: String

    /// sshd started as a service manager starts it: it reads its configuration (and exits 255
    /// on a bad one, without listening), then detaches and listens. Run inside the host's
    /// namespaces (a maintainer script of a job run over ssh on the host is).
    public var startCommand: [String] { [executable, "-f", configuration, "-E", log] }
}
