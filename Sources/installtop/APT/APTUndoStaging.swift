#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import TextBasics

/// The kept .debs of an undo (or a repair) where apt can read them. On this system they are
/// used where they are kept; apt in a chroot sees only the chroot, so there they are linked
/// (copied when the chroot is on another file system) into `CHROOT/var/cache/installtop/NAME/`
/// (`undo-RUN`, `repair-RUN`) for the job and removed with that folder after it (`remove()`).
struct APTUndoStaging {
    /// The folder made in the chroot (this system's path); `nil` when nothing was staged.
    let folder: String?

    /// `debs` as apt will name them: the same paths without a chroot, paths inside it with one.
    /// - Throws: `UndoRefusal` when a kept file cannot be put in the chroot (nothing is
    ///   left behind then).
    static func stage(_ debs: [String], as name: String, chroot: String?) throws(UndoRefusal) -> (APTUndoStaging, [String]) {
        guard let chroot, !debs.isEmpty else { return (APTUndoStaging(folder: nil), debs) }
        let inside = "/var/cache/installtop/\(name)"
        let folder = (chroot.hasSuffix("/") ? String(chroot.dropLast()) : chroot) + inside
        let staging = APTUndoStaging(folder: folder)
        do {
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            var named: [String] = []
            for deb in debs {
                let name = PathText.lastComponent(of: deb)
                if link(deb, folder + "/" + name) != 0 {
                    try FileManager.default.copyItem(atPath: deb, toPath: folder + "/" + name)
                }
                named.append(inside + "/" + name)
            }
            return (staging, named)
        } catch {
            staging.remove()
            throw UndoRefusal(message: "the kept versions cannot be put in the chroot (\(folder)): \(ErrorText.reason(error))")
        }
    }

    /// Removes what `stage` put in the chroot, and its parent when nothing else is in it.
    func remove() {
        guard let folder else { return }
        try? FileManager.default.removeItem(atPath: folder)
        rmdir(PathText.parent(of: folder))
    }
}
