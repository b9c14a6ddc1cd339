#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import CDispatch

/// Whether dnf may act on this system itself (no `--installroot`).
public enum DNFSystem {
    /// Why a dnf job without `--installroot` must not run here: this system's packages are
    /// dpkg's (`status` lists them), and rpm would install files over them, unknown to dpkg (and
    /// Debian's rpm keeps its database in the home folder). `nil` where rpm manages the system.
    public static func refusalWithoutRoot(dpkgStatus: String = "/var/lib/dpkg/status") -> String? {
        var status = stat()
        guard stat(dpkgStatus, &status) == 0, status.st_size > 0 else { return nil }
        return "this system's packages are dpkg's (\(dpkgStatus)): a dnf job here acts on a root of its own, "
            + "named with --installroot DIR (and --releasever)"
    }
}
