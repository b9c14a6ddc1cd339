#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine

/// The safe point between any two archives of apt's batched `dpkg --unpack` run (rule 24), for
/// one transaction: a folder of its own that apt puts first on dpkg's `PATH` (`DPkg::Path`,
/// which apt sets for dpkg), empty until a stop is requested, when installtop puts its own
/// `dpkg-deb` there.
///
/// dpkg looks `dpkg-deb` up on its `PATH` each time it runs it, and its first step on each
/// archive is `dpkg-deb --control ARCHIVE DIR`, before it changes anything of that package.
/// Until the stop, dpkg finds nothing in the folder and runs its own `dpkg-deb` (a failed
/// `execve` a call). From the stop on (`requestStop`) it finds the gate's, which refuses that
/// step, so dpkg leaves that archive and every later one of its run untouched (it reports each
/// as an error) and ends by itself; apt, which has SIGINT by then, starts no other unpack and
/// runs its `dpkg --configure --pending`, which configures every package unpacked so far. The
/// gate refuses only where that configuration can succeed, as `dpkg --dry-run --configure
/// --pending` says in the same database (dpkg hands the gate its `DPKG_ROOT` and
/// `DPKG_ADMINDIR`; `--log=/dev/null`, since dpkg logs its start even when it only pretends,
/// and in the system's log when not told the root's): a package unpacked before one it needs
/// (a dependency cycle, an upgrade that `Breaks` the old version of a later one) lets the next
/// archive through, and the gate asks again before the one after. Every other call of
/// `dpkg-deb` runs dpkg's own at once, with dpkg's own `PATH`.
///
/// Why not apt's own safe point (`APT::Immediate-Configure-All`, a dpkg run to unpack and
/// another to configure every package): each dpkg run reads dpkg's whole files database, which
/// made installtop 1.14-1.23x as slow as `apt-get install -y` on 18 real packages (issue 32);
/// with the gate it is 1.03-1.05x. (A gate in place from the start, a shell run twice an
/// archive, cost 1.05-1.08x by itself.)
public struct DpkgArchiveGate: Sendable, Hashable {
    /// The gate's folder where installtop reads and writes it.
    public let folder: String
    /// The same folder as dpkg sees it (inside the chroot, when there is one).
    let folderForDpkg: String
    /// dpkg's `PATH` without the gate: `DPkg::Path` as the root's configuration sets it.
    let dpkgPath: String

    /// apt's `DPkg::Path` when the configuration sets none.
    static let defaultDpkgPath = "/usr/sbin:/usr/bin:/sbin:/bin"

    /// The status the gate exits with when it refuses an archive (dpkg says "dpkg-deb --control
    /// subprocess returned error exit status 75"): `EX_TEMPFAIL`, the archive is fine.
    static let refusalStatus: Int32 = 75

    /// dpkg's error for an archive the gate refused, as apt's `pmerror` carries it.
    static let refusalError = "dpkg-deb --control subprocess returned error exit status \(refusalStatus)"

    /// What the gate prints (once) when it first refuses an archive: dpkg's errors for the
    /// archives left follow it.
    public static let refusalNotice = "installtop: stopping here as asked: dpkg opens no further archive (it reports each one left as an error), and what it unpacked is configured now"

    /// Makes the gate of one transaction in `environment`'s root: a new, empty folder under
    /// `ROOT/run/installtop`. `nil` when it cannot be made (a root that is not writable): the
    /// transaction then keeps apt's own per-package safe point.
    public static func make(for environment: APTEnvironment) -> DpkgArchiveGate? {
        let parent = environment.path(inRoot: "/run/installtop")
        guard (try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)) != nil else { return nil }
        var template = Array((parent + "/dpkg-gate.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let folder = String(cString: made)
        // dpkg runs inside the chroot: the folder there is the same path without the chroot's.
        let folderForDpkg = environment.pathInsideChroot(folder)
        let configured = environment.dpkgPath ?? ""
        return DpkgArchiveGate(folder: folder, folderForDpkg: folderForDpkg, dpkgPath: configured.isEmpty ? defaultDpkgPath : configured)
    }

    /// The options that put the gate on dpkg's `PATH`, in place of apt's per-package safe point.
    public var aptOptions: [String] { ["-o", "DPkg::Path=\(folderForDpkg):\(dpkgPath)"] }

    /// Puts the gate's `dpkg-deb` in place (whole, by a rename): from dpkg's next archive on it
    /// refuses each one where configuring what is unpacked can succeed. Safe to call more than
    /// once; false when it could not be written (apt's SIGINT alone then stops at apt's end).
    @discardableResult
    public func requestStop() -> Bool {
        let gate = folder + "/dpkg-deb"
        if FileManager.default.fileExists(atPath: gate) { return true }
        let written = folder + "/.dpkg-deb.new"
        guard FileManager.default.createFile(atPath: written, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]) else {
            return false
        }
        return rename(written, gate) == 0
    }

    /// Deletes the folder. Call it once apt has ended: a dpkg still running would find the
    /// gate gone and open every archive left (dpkg is killed by then after a forced stop).
    public func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The gate's `dpkg-deb`, a POSIX shell script with the paths as dpkg sees them.
    var script: String {
        let refused = ShellQuoting.singleQuoted(folderForDpkg + "/refused")
        return """
            #!/bin/sh
            # installtop's safe point before each archive dpkg opens, once a stop is asked (DpkgArchiveGate.swift in installtop).
            if [ "$1" = --control ] && dpkg --dry-run --log=/dev/null --configure --pending >/dev/null 2>&1; then
                if [ ! -e \(refused) ]; then
                    : > \(refused)
                    echo \(ShellQuoting.singleQuoted(Self.refusalNotice)) >&2
                fi
                exit \(Self.refusalStatus)
            fi
            PATH=\(ShellQuoting.singleQuoted(dpkgPath))
            exec dpkg-deb "$@"

            """
    }

}
