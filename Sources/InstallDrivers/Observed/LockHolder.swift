import Glibc
import InstallEngine
import RestartScan
import TextBasics

/// The process that holds dpkg's lock, read from `/proc`: who it is (the initiator of an
/// observed job), since when, and the dpkg it runs now.
public struct LockHolder: Sendable, Hashable {
    public var initiator: ObservedInitiator
    /// When it started, in seconds since 1970; `nil` when `/proc` could not say.
    public var since: Int?
    /// Its parent's pid when it was read: a holder may be gone by the time its log lines are
    /// looked at (an engine's own `apt-get check` or `dpkg --configure --pending` lasts a
    /// fraction of a poll), and `/proc` can no longer say whose it was.
    public var parent: Int32

    /// The holder `pid`; `nil` when it is gone or `/proc` is unreadable.
    public init?(pid: Int32) {
        let proc = ProcFS()
        guard let stat = proc.stat(of: pid) else { return nil }
        let uid = proc.status(of: pid)?.realUID ?? 0
        let user = getpwuid(uid).flatMap { $0.pointee.pw_name }.map { String(cString: $0) } ?? String(uid)
        initiator = ObservedInitiator(
            pid: pid, startTicks: stat.startTicks, program: stat.command,
            commandLine: proc.commandLine(of: pid), uid: uid, user: user, terminal: stat.terminal,
            installtopRun: proc.environmentVariable(InstalltopRunMarker.variable, of: pid).flatMap(InstalltopRunMarker.init(text:)))
        parent = stat.parent
        since = proc.bootTime().map { $0 + Int(stat.startTicks) / max(1, sysconf(Int32(_SC_CLK_TCK))) }
    }

    /// `pid 812 (apt-get install nginx, root, since 14:02:11)`.
    public var description: String {
        let command = initiator.commandLine.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: " ")
        var parts = [command.isEmpty ? initiator.program : command, initiator.user]
        if let since { parts.append("since \(LocalTimeText.string(since, format: "%H:%M:%S"))") }
        return "pid \(initiator.pid) (\(parts.joined(separator: ", ")))"
    }

    /// Its start as dpkg's log writes times (`2026-11-23 14:02:11`): the log's lines of its
    /// transaction are those at or after it. A second early: the boot time it is counted from
    /// is cut to the second.
    var logTime: String? { since.map { LocalTimeText.string($0 - 1, format: "%Y-%m-%d %H:%M:%S") } }

    /// The dpkg processes it runs now (itself first when it is dpkg), with their arguments.
    func dpkgProcesses() -> [(pid: Int32, arguments: [String])] {
        var pids = ProcessTree.descendants(of: initiator.pid).filter { $0.name == "dpkg" }.map(\.pid)
        if initiator.program == "dpkg" { pids.insert(initiator.pid, at: 0) }
        let proc = ProcFS()
        return pids.map { ($0, proc.commandLine(of: $0)) }.filter { !$0.arguments.isEmpty }
    }
}
