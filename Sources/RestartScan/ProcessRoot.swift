/// Where one process's paths lead (rule 32): its root directory and mount namespace, from
/// `/proc/PID/root` and `/proc/PID/ns/mnt`.
///
/// `maps` shows a path as the kernel renders it to the reader: from the reader's root when the
/// file is under it, else from the top of the file's own mount tree. A process of the scanner's
/// root and mount namespace finds the same file at that path as the scanner; any other's path is
/// read through its own root (`/proc/PID/root/PATH`), with its root's rendering taken off the
/// front, so a chroot's or container's files are never compared with the scanner's.
struct ProcessRoot {
    /// A view of the file system: the root directory's device and inode, and the mount
    /// namespace. Processes with equal keys find the same file at a path, so a scan looks a path
    /// up once per key. `nil` parts are unknown (a recorded `/proc`).
    struct Key: Hashable {
        var root: FileMetadata.Identity?
        var mountNamespace: String?

        /// The view of the process whose `/proc` folder is `folder` (`/proc/self` for the scanner).
        init(folder: String) {
            root = FileMetadata.identity(of: folder + "/root")
            mountNamespace = try? FileMetadata.link(folder + "/ns/mnt").get()
        }
    }

    /// The view its paths are looked up in: the scanner's own for a process that shares it.
    let key: Key
    /// Its root is the scanned one, or that cannot be told (a recorded `/proc`, a process
    /// that is gone).
    let isScanned: Bool
    /// Its root as `/proc/PID/root` renders it to the scanner when its paths are read through
    /// it; `nil` when they are read under the scanned root.
    let shown: String?
    /// What a path is read under: the scanned root, or the process's `/proc/PID/root`.
    private let base: String
    private let throughOwnRoot: Bool

    /// The process whose `/proc` folder is `folder`, against the scanner's own view `own` and
    /// the folder `root` the scan reads its root's files under (`/`, or an image with `--root`).
    init(folder: String, own: Key, root: String) {
        let view = Key(folder: folder)
        isScanned = own.root == nil || view.root == nil || view.root == own.root
        // `--root` points the scan at an image: its own root's processes are read there, whatever
        // their mount namespace; on `/`, a service's private namespace is read through its root.
        if isScanned, view.mountNamespace == own.mountNamespace || root != "/" {
            key = own
            base = root
            shown = nil
            throughOwnRoot = false
        } else {
            key = view
            base = folder + "/root"
            shown = (try? FileMetadata.link(folder + "/root").get()) ?? "/"
            throughOwnRoot = true
        }
    }

    /// A path as a mapping shows it to the scanner, as the process sees it (the rendering of
    /// its root taken off the front, so a chroot's `/srv/jail/usr/lib/libc.so.6` is its
    /// `/usr/lib/libc.so.6`), and where that leads now for the scanner. The location is `nil`
    /// when the path lies outside the process's root (it mapped the file before a chroot, as an
    /// SSH server's unprivileged child does): no path of its own leads there, and the path is
    /// kept as shown.
    func resolve(_ path: String) -> (path: String, location: String?) {
        guard throughOwnRoot else { return (path, root(join: path)) }
        guard let shown, shown != "/" else { return (path, base + path) }
        guard path.hasPrefix(shown), path.dropFirst(shown.count).first == "/" else { return (path, nil) }
        let own = String(path.dropFirst(shown.count))
        return (own, base + own)
    }

    /// A file of the process's root (`etc/passwd`), by its path relative to that root.
    func file(_ relative: String) -> String {
        throughOwnRoot ? base + "/" + relative : root(join: "/" + relative)
    }

    private func root(join path: String) -> String {
        base == "/" ? path : KernelVersions.join(base, String(path.dropFirst()))
    }
}
