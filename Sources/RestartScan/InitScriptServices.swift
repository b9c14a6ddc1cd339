import TextBasics
/// The services init scripts started outside systemd (`/etc/init.d/NAME start` in a chroot,
/// on a host without systemd), as the system records them: a pid file under `run/` whose name
/// is the script's. It reads directory listings and pid files only, never the scripts.
struct InitScriptServices {
    /// A pid file that names an init script's service.
    struct PidFile {
        /// The script's name in `etc/init.d`.
        var script: String
        /// When the pid file was written, in seconds since the epoch.
        var modified: Double
    }

    private var files: [Int32: PidFile] = [:]

    /// The pid files under `root`'s `run/` (`run/NAME.pid`, `run/FOLDER/NAME.pid`,
    /// `run/FOLDER/pid`) whose script is in `etc/init.d`: the script named as the file
    /// (`nginx.pid`), as its folder (`redis/redis-server.pid` is redis-server's, `dbus/pid`
    /// dbus's), or as the file without a daemon's trailing `d` (`sshd.pid` is ssh's, `crond.pid`
    /// cron's). Empty when the root has no init scripts.
    init(root: String) {
        let scripts = Set(FileMetadata.entries(of: KernelVersions.join(root, "etc/init.d")))
        guard !scripts.isEmpty else { return }
        let run = KernelVersions.join(root, "run")
        for entry in FileMetadata.entries(of: run) {
            if entry.hasSuffix(".pid") {
                add(run + "/" + entry, names: Self.names(file: entry, folder: nil), scripts: scripts)
                continue
            }
            for file in FileMetadata.entries(of: run + "/" + entry) where file.hasSuffix(".pid") || file == "pid" {
                add(run + "/" + entry + "/" + file, names: Self.names(file: file, folder: entry), scripts: scripts)
            }
        }
    }

    var isEmpty: Bool { files.isEmpty }

    /// The pid file that names `pid`, if any.
    func pidFile(naming pid: Int32) -> PidFile? { files[pid] }

    private static func names(file: String, folder: String?) -> [String] {
        let stem = file.hasSuffix(".pid") ? String(file.dropLast(".pid".count)) : ""
        var names = [stem]
        if let folder { names.append(folder) }
        if stem.count > 1, stem.hasSuffix("d") { names.append(String(stem.dropLast())) }
        return names.filter { !$0.isEmpty }
    }

    private mutating func add(_ path: String, names: [String], scripts: Set<String>) {
        guard let script = names.first(where: scripts.contains),
              let pid = FileMetadata.text(path).flatMap({ Int32($0.trimmingWhitespace()) }), pid > 1,
              let modified = FileMetadata.modified(path)
        else { return }
        files[pid] = PidFile(script: script, modified: modified)
    }
}
