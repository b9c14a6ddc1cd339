/// Finds the processes that still run deleted or replaced code and whether the machine needs
/// a reboot (rule 32).
///
/// It reads `/proc` (each process's `maps`, `exe` link, `comm`, `cgroup` and owner) and the
/// metadata of the paths the processes map; it never runs, opens or interprets what the scanned
/// processes use. Both roots are parameters so tests can point it at recorded samples.
public struct RestartScanner: Sendable {
    /// Where `/proc` is (`/proc` on a live host).
    public var procRoot: String
    /// The root the mapped paths, `boot`, `lib/modules`, `run/reboot-required` and `etc/passwd`
    /// are read under (`/` on a live host, a folder in tests).
    public var root: String

    public init(procRoot: String = "/proc", root: String = "/") {
        self.procRoot = procRoot
        self.root = root
    }

    /// Scans every process now. Processes that exit during the scan are left out; those whose
    /// maps cannot be read are in `unreadable`.
    public func scan() -> RestartAdvice {
        var state = ScanState()
        var processes: [StaleProcess] = []
        var unreadable: [UnreadableProcess] = []
        let pids = FileMetadata.entries(of: procRoot).compactMap { Int32($0) }.sorted()
        for pid in pids {
            switch scanProcess(pid, state: &state) {
            case .stale(let process): processes.append(process)
            case .unreadable(let process): unreadable.append(process)
            case .current: break
            }
        }
        return RestartAdvice(processes: processes, unreadable: unreadable, rebootReasons: rebootReasons())
    }

    /// Why a reboot is needed, from the running kernel and `run/reboot-required`; empty when
    /// nothing says so.
    public func rebootReasons() -> [RebootReason] {
        var reasons: [RebootReason] = []
        if let running = FileMetadata.text(procRoot + "/sys/kernel/osrelease")?.trimmingWhitespace(),
           !running.isEmpty,
           let newest = KernelVersions.newest(KernelVersions.installed(root: root)),
           KernelVersions.precedes(running, newest) {
            reasons.append(.newerKernel(running: running, installed: newest))
        }
        let flag = KernelVersions.join(root, "run/reboot-required")
        if FileMetadata.exists(flag) {
            var packages: [String] = []
            for line in (FileMetadata.text(flag + ".pkgs") ?? "").split(separator: "\n") {
                let name = line.trimmingWhitespace()
                if !name.isEmpty, !packages.contains(name) { packages.append(name) }
            }
            reasons.append(.rebootRequiredFile(packages: packages))
        }
        return reasons
    }

    // MARK: - One process

    private enum Verdict {
        case stale(StaleProcess)
        case unreadable(UnreadableProcess)
        case current
    }

    /// What one scan keeps between processes: the buffer, the identities of paths already looked
    /// at (a thousand processes map the same libc), and the user names.
    private struct ScanState {
        var buffer: [UInt8] = []
        var identities: [String: FileMetadata.Identity?] = [:]
        var users: [UInt32: String]?
    }

    private func scanProcess(_ pid: Int32, state: inout ScanState) -> Verdict {
        let folder = procRoot + "/" + String(pid)
        let command = FileMetadata.text(folder + "/comm")?.trimmingWhitespace() ?? ""
        if let error = FileMetadata.contents(folder + "/maps", into: &state.buffer) {
            return error.meansGone ? .current : .unreadable(UnreadableProcess(pid: pid, command: command, reason: error.description))
        }
        var files = staleMappings(in: state.buffer, state: &state)
        // A kernel thread maps nothing; a process whose maps say nothing stale is current.
        guard !files.isEmpty else { return .current }
        if case .success(let target) = FileMetadata.link(folder + "/exe") {
            let executable = target.hasSuffix(Self.deletedMark) ? String(target.dropLast(Self.deletedMark.count)) : target
            if let index = files.firstIndex(where: { $0.path == executable }), index > 0 {
                files.insert(files.remove(at: index), at: 0)
            }
        }
        let uid = FileMetadata.owner(of: folder) ?? 0
        if state.users == nil { state.users = UserNames.read(KernelVersions.join(root, "etc/passwd")) }
        let owner = ProcessOwner(cgroupFile: FileMetadata.text(folder + "/cgroup") ?? "")
        return .stale(StaleProcess(
            pid: pid, command: command, uid: uid, user: state.users?[uid] ?? String(uid), owner: owner, files: files))
    }

    private static let deletedMark = " (deleted)"

    /// The executable mappings of `maps` whose file was deleted or replaced, each path once.
    private func staleMappings(in maps: [UInt8], state: inout ScanState) -> [StaleFile] {
        var files: [StaleFile] = []
        var seen: Set<String> = []
        maps.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if let mapping = MapsLine(bytes[start..<end]), !seen.contains(mapping.path) {
                    seen.insert(mapping.path)
                    if let change = change(of: mapping, state: &state) {
                        files.append(StaleFile(path: mapping.path, change: change))
                    }
                }
                start = end + 1
            }
        }
        return files
    }

    private func change(of mapping: MapsLine, state: inout ScanState) -> StaleFile.Change? {
        if mapping.deleted { return .deleted }
        let identity: FileMetadata.Identity?
        if let known = state.identities[mapping.path] {
            identity = known
        } else {
            identity = FileMetadata.identity(of: root == "/" ? mapping.path : KernelVersions.join(root, String(mapping.path.dropFirst())))
            state.identities[mapping.path] = identity
        }
        // Another device (an overlay's upper layer, another mount namespace) says nothing either way.
        guard let identity, identity.major == mapping.major, identity.minor == mapping.minor else { return nil }
        return identity.inode == mapping.inode ? nil : .replaced
    }
}
