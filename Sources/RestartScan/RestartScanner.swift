import Glibc
import TextBasics

/// Finds the processes that still run deleted or replaced code and whether the machine needs
/// a reboot (rule 32).
///
/// It reads `/proc` (each process's `maps`, `exe` and `root` links, mount namespace, `comm`,
/// `cgroup`, owner, and for a process of no systemd service its `stat`) and the metadata of the
/// paths the processes map, each through the process's own root (`ProcessRoot`); the user names
/// in `etc/passwd` and the pid files under `run/` of init scripts' services. It never runs,
/// opens or interprets what the scanned processes use. Both roots are parameters so tests can
/// point it at recorded samples.
public struct RestartScanner: Sendable {
    /// Where `/proc` is (`/proc` on a live host).
    public var procRoot: String
    /// The root `boot`, `lib/modules`, `run/reboot-required`, `run/` pid files, `etc/init.d`,
    /// `etc/passwd` and the mapped paths of the scanner's own root's processes are read under
    /// (`/` on a live host, an image or a folder in tests). Processes of other roots are read
    /// through their own (`/proc/PID/root`).
    public var root: String

    public init(procRoot: String = "/proc", root: String = "/") {
        self.procRoot = procRoot
        self.root = root
    }

    /// Scans every process now. Processes that exit during the scan are left out; those whose
    /// maps cannot be read are in `unreadable`; those in another root (see `ProcessRoot`) are
    /// checked against their own root's files and kept apart in `otherRoots`.
    public func scan() -> RestartAdvice {
        var state = ScanState(own: ProcessRoot.Key(folder: procRoot + "/self"))
        var advice = RestartAdvice(scannedAsRoot: geteuid() == 0)
        let pids = proc.pids().sorted()
        for pid in pids {
            switch scanProcess(pid, state: &state) {
            case .stale(let process) where process.root == nil: advice.processes.append(process)
            case .stale(let process): advice.otherRoots.append(process)
            case .unreadable(let process): advice.unreadable.append(process)
            case .current: break
            }
        }
        advice.rebootReasons = rebootReasons()
        return advice
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
    /// at per view of the file system (a thousand processes map the same libc; a chroot's libc
    /// is another file at the same path), the user names per view, and the pid files of init
    /// scripts' services.
    private struct ScanState {
        let own: ProcessRoot.Key
        var buffer: [UInt8] = []
        var mappings: [MapsLine] = []
        var identities: [ProcessRoot.Key: [String: FileMetadata.Identity?]] = [:]
        var users: [ProcessRoot.Key: [UInt32: String]] = [:]
        var initScripts: InitScriptServices?
        var bootClock: BootClock??

        init(own: ProcessRoot.Key) { self.own = own }
    }

    /// The `/proc` scanned, read through the one reader.
    private var proc: ProcFS { ProcFS(root: procRoot) }

    private func scanProcess(_ pid: Int32, state: inout ScanState) -> Verdict {
        let folder = proc.folder(of: pid)
        let command = proc.command(of: pid) ?? ""
        if let error = proc.maps(of: pid, into: &state.buffer) {
            return error.meansGone ? .current : .unreadable(UnreadableProcess(pid: pid, command: command, reason: error.description))
        }
        readMappings(&state)
        // A kernel thread maps nothing.
        guard !state.mappings.isEmpty else { return .current }
        let place = ProcessRoot(folder: folder, own: state.own, root: root)
        var files: [StaleFile] = []
        for mapping in state.mappings {
            let (path, location) = place.resolve(mapping.path)
            if !files.contains(where: { $0.path == path }), let change = change(of: mapping, at: location, in: place, state: &state) {
                files.append(StaleFile(path: path, change: change))
            }
        }
        guard !files.isEmpty else { return .current }
        if let target = proc.executable(of: pid) {
            let executable = place.resolve(target.hasSuffix(Self.deletedMark) ? String(target.dropLast(Self.deletedMark.count)) : target).path
            if let index = files.firstIndex(where: { $0.path == executable }), index > 0 {
                files.insert(files.remove(at: index), at: 0)
            }
        }
        let uid = FileMetadata.owner(of: folder) ?? 0
        if state.users[place.key] == nil { state.users[place.key] = UserNames.read(place.file("etc/passwd")) }
        let cgroup = proc.cgroup(of: pid) ?? ""
        var owner = ProcessOwner(cgroupFile: cgroup)
        if place.isScanned, Self.mayBeInitScriptService(owner),
           let service = initScriptOwner(of: pid, cgroup: cgroup, state: &state) {
            owner = service
        }
        return .stale(StaleProcess(
            pid: pid, command: command, uid: uid, user: state.users[place.key]?[uid] ?? String(uid), owner: owner, files: files,
            root: place.isScanned ? nil : place.shown ?? "/"))
    }

    private static let deletedMark = " (deleted)"

    /// A session's or no one's process may be a service an init script started from a shell;
    /// a systemd service's or a container's is not.
    private static func mayBeInitScriptService(_ owner: ProcessOwner) -> Bool {
        switch owner {
        case .session, .bare: true
        case .service, .initScript, .container: false
        }
    }

    /// The executable file mappings of the maps in `state.buffer`, into `state.mappings`: each
    /// file once, a deleted one apart from a current one at the same path (a library deleted,
    /// made again and mapped again is two files).
    private func readMappings(_ state: inout ScanState) {
        var mappings: [MapsLine] = []
        swap(&mappings, &state.mappings)
        mappings.removeAll(keepingCapacity: true)
        state.buffer.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if let mapping = MapsLine(bytes[start..<end]), !mappings.contains(where: { $0.isSameFile(as: mapping) }) {
                    mappings.append(mapping)
                }
                start = end + 1
            }
        }
        state.mappings = mappings
    }

    /// How the file `mapping` maps lost its path: deleted, or replaced by what `location` (its
    /// path in the process's own view) leads to now; `nil` when it did not, or cannot be told.
    private func change(of mapping: MapsLine, at location: String?, in place: ProcessRoot, state: inout ScanState) -> StaleFile.Change? {
        if mapping.deleted { return .deleted }
        let identity: FileMetadata.Identity?
        if let known = state.identities[place.key]?[mapping.path] {
            identity = known
        } else {
            identity = location.flatMap(FileMetadata.identity(of:))
            state.identities[place.key, default: [:]][mapping.path] = identity
        }
        // Another device (an overlay's upper layer) says nothing either way.
        guard let identity, identity.major == mapping.major, identity.minor == mapping.minor else { return nil }
        return identity.inode == mapping.inode ? nil : .replaced
    }

    /// The init script's service of a process of no systemd service (rule 32): the process, or
    /// its nearest ancestor in the same cgroup (nginx's workers under their master), that a pid
    /// file under `run/` names, written after that process started (an older file names a
    /// process that had the pid before). `nil` when none does.
    private func initScriptOwner(of pid: Int32, cgroup: String, state: inout ScanState) -> ProcessOwner? {
        if state.initScripts == nil { state.initScripts = InitScriptServices(root: root) }
        guard let services = state.initScripts, !services.isEmpty else { return nil }
        if state.bootClock == nil { state.bootClock = .some(BootClock(procRoot: procRoot)) }
        guard let clock = state.bootClock ?? nil else { return nil }
        var current = pid
        // A bound, so that a /proc changing under the walk cannot keep it going.
        for _ in 0..<32 {
            guard let stat = proc.stat(of: current) else { return nil }
            if let file = services.pidFile(naming: current), clock.seconds(afterBoot: stat.startTicks) <= file.modified + 1 {
                return .initScript(name: file.script)
            }
            guard stat.parent > 1, proc.cgroup(of: stat.parent) == cgroup else { return nil }
            current = stat.parent
        }
        return nil
    }
}
