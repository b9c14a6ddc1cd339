import Glibc
import InstallEngine
import RestartScan

/// What is left running of an apt transaction after apt-get ended (rule 25a): dpkg, or the
/// maintainer script of a dpkg that was killed, and their children. They are found by the
/// transaction's mark (`InstalltopRunMarker`'s text in `INSTALLTOP_APT_RUN`, which apt-get,
/// dpkg and every script inherit), not by their parents: once apt-get or dpkg died they were
/// reparented (to installtop when it adopts orphans, else to init), and dpkg runs in a session
/// of its own, which apt-get's process group does not reach.
///
/// Edges: a process that cleared its environment is not found; another job of the same engine
/// with the very same mark (same job name, no history run) would be taken for this one, which
/// a history's run number (part of the mark) rules out; a pid may exit and be reused between
/// the scan and the signal (microseconds).
struct APTTransactionRemains {
    /// The processes found, in `/proc`'s order.
    var members: [ProcessTree.Member] = []
    /// The maintainer script dpkg was running (`DPKG_MAINTSCRIPT_PACKAGE`, `DPKG_MAINTSCRIPT_NAME`
    /// of a process found), when one was.
    var script: (package: String, name: String)?

    /// Every process but this one whose mark is `marker`.
    static func find(marker: String) -> APTTransactionRemains {
        let proc = ProcFS()
        let me = getpid()
        var remains = APTTransactionRemains()
        for pid in proc.pids() where pid != me {
            guard proc.environmentVariable(InstalltopRunMarker.variable, of: pid) == marker,
                  let stat = proc.stat(of: pid), stat.state != "Z" else { continue }
            remains.members.append(ProcessTree.Member(pid: pid, name: stat.command))
            if remains.script == nil, let package = proc.environmentVariable("DPKG_MAINTSCRIPT_PACKAGE", of: pid),
               let name = proc.environmentVariable("DPKG_MAINTSCRIPT_NAME", of: pid) {
                remains.script = (package, name)
            }
        }
        return remains
    }

    /// Stops every member, then kills it (SIGSTOP first, as a forced stop does: a script cannot
    /// start another process between the two).
    func kill() {
        for member in members { _ = Glibc.kill(member.pid, SIGSTOP) }
        for member in members { _ = Glibc.kill(member.pid, SIGKILL) }
    }
}
