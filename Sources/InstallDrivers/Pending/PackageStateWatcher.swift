import Dispatch
import Glibc
import InstallEngine
import Synchronization

/// Notices every change to an apt root's package state, whoever makes it (installtop's jobs,
/// apt-get or dpkg by hand, unattended-upgrades, with or without the hooks): dpkg rewriting its
/// status file, apt writing or removing a list. It watches with inotify, so a transaction too
/// short for any poll is seen all the same, and nothing is read while nothing changes.
///
/// A transaction rewrites the status file many times: the changes are coalesced. The first one
/// after a quiet spell is said at once (`changing`), so that what shows the root can say a new
/// account is coming; `settled` follows once no change has come for `quiet` and neither dpkg's
/// locks nor apt's lists' lock is held, with the time of the last change it covers.
///
/// The lock files themselves are not watched: looking at a lock (`DpkgLock`) opens it for
/// writing, which inotify reports, and the engine looks at them every 250 ms.
///
/// Without inotify (a user's instances used up: 128 by default, which 200 engines on one
/// machine exceed), the same files are looked at every `pollInterval` instead: the status
/// file's identity, size and time, and the lists folder's time (apt renames each list into it).
public final class PackageStateWatcher: Sendable {
    /// The folders watched and the files in them that count.
    public struct Places: Sendable, Hashable {
        /// dpkg's database (`Dir::State::status`'s folder): its `status` file counts.
        public var administrativeDirectory: String
        /// apt's lists (`Dir::State::lists`): every file but its `lock` and `partial/`;
        /// `nil` when apt names none.
        public var lists: String?

        /// The lock files whose holder is still changing the root.
        var lockFiles: [String] {
            [administrativeDirectory + "/lock-frontend", administrativeDirectory + "/lock"] + (lists.map { [$0 + "/lock"] } ?? [])
        }
    }

    /// What the watcher says.
    public enum Change: Sendable, Hashable {
        /// A change came after a quiet spell: more may follow.
        case changing
        /// The changes since `changing` are over; the last came at this instant.
        case settled(lastChangeAt: ContinuousClock.Instant)
    }

    /// Why watching could not start: inotify refused (`errno`'s words).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private struct State {
        var stopped = false
    }

    private let places: Places
    private let quiet: Duration
    /// -1 when the files are polled instead (`pollInterval`).
    private let inotify: Int32
    private let pollInterval: Duration
    /// What each watch descriptor watches: the administrative directory's or the lists'.
    private let watches: [Int32: Bool]
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = Mutex(State())
    /// Signalled when the thread ends.
    private let ended = DispatchSemaphore(value: 0)

    /// Starts watching `places` on a thread of its own, calling `report` on that thread (it must
    /// be quick: it only notes the change). A folder that does not exist is not watched (a
    /// root whose apt never fetched lists has no lists folder). Without inotify, or when
    /// `polling`, the files are looked at every `pollInterval`; `note` says so.
    /// - Throws: `Failure` when neither folder exists, or the thread cannot be had.
    public init(places: Places, quiet: Duration = .milliseconds(300), polling: Bool = false, pollInterval: Duration = .milliseconds(500),
                note: @Sendable (String) -> Void = { _ in }, report: @escaping @Sendable (Change) -> Void) throws(Failure) {
        self.places = places
        self.quiet = quiet
        self.pollInterval = pollInterval
        guard access(places.administrativeDirectory, F_OK) == 0 else {
            throw Failure(description: "cannot watch \(places.administrativeDirectory): \(String(cString: strerror(errno)))")
        }
        var descriptor: Int32 = polling ? -1 : inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        var watches: [Int32: Bool] = [:]
        if descriptor >= 0 {
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
            for (path, isLists) in [(places.administrativeDirectory, false)] + (places.lists.map { [($0, true)] } ?? []) {
                let watch = inotify_add_watch(descriptor, path, mask)
                if watch >= 0 { watches[watch] = isLists }
            }
            if watches.isEmpty {
                close(descriptor)
                descriptor = -1
            }
        } else if !polling {
            note("inotify: \(String(cString: strerror(errno))) (the user's instances used up?): "
                 + "the root's dpkg status and lists are looked at every \(pollInterval) instead")
        }
        inotify = descriptor
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let reason = "pipe: \(String(cString: strerror(errno)))"
            if descriptor >= 0 { close(descriptor) }
            throw Failure(description: reason)
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.watches = watches
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        // What polling compares with, looked at before `init` returns: a change made right after
        // is a change, however late the thread starts.
        let firstLook = descriptor >= 0 ? nil : Self.look(at: places)
        if let error = EngineThread.start(named: "installtop-watch", { [self] in run(report: report, firstLook: firstLook) }) {
            if inotify >= 0 { close(inotify) }
            close(wakeRead)
            close(wakeWrite)
            throw Failure(description: "cannot start a thread: \(error.description)")
        }
    }

    deinit {
        if inotify >= 0 { close(inotify) }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Stops watching and returns once the thread has said its last: nothing is reported after.
    /// Idempotent.
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        ended.wait()
    }

    // MARK: - The thread

    private func run(report: @Sendable (Change) -> Void, firstLook: [Int]?) {
        defer { ended.signal() }
        var lastChange: ContinuousClock.Instant?
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var looked = firstLook
        var nextLook = ContinuousClock.now + pollInterval
        while !state.withLock(\.stopped) {
            // A negative descriptor is ignored by poll: polling mode waits on the wake pipe alone.
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var deadline: ContinuousClock.Instant? = lastChange.map { $0 + quiet }
            if inotify < 0 { deadline = min(deadline ?? nextLook, nextLook) }
            let timeout: Int32
            if let deadline {
                let left = deadline - .now
                timeout = left <= .zero ? 0 : Int32(max(1, left / .milliseconds(1)))
            } else {
                timeout = -1
            }
            guard poll(&descriptors, 2, timeout) >= 0 || errno == EINTR else { return }
            if descriptors[1].revents != 0 { return }
            var changed = false
            if inotify >= 0 {
                changed = descriptors[0].revents != 0 && readChanges(into: &buffer)
            } else if ContinuousClock.now >= nextLook {
                nextLook = .now + pollInterval
                let now = Self.look(at: places)
                changed = now != looked
                looked = now
            }
            if changed {
                if lastChange == nil { report(.changing) }
                lastChange = .now
                continue
            }
            guard let last = lastChange, ContinuousClock.now - last >= quiet else { continue }
            // A holder of a lock is still at work: its end (a last rewrite of the status, or
            // none) is waited for, looking again after another quiet spell.
            if places.lockFiles.contains(where: Self.isHeld) {
                lastChange = .now
                continue
            }
            lastChange = nil
            report(.settled(lastChangeAt: last))
        }
    }

    /// Reads what inotify has; true when a file that counts changed.
    private func readChanges(into buffer: inout [UInt8]) -> Bool {
        var counted = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return counted }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (descriptor, nameLength, mask) = buffer.withUnsafeBytes { raw -> (Int32, Int, UInt32) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, Int(event.len), event.mask)
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(count, nameStart + nameLength)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    counted = true
                } else if let isLists = watches[descriptor], Self.counts(name, inLists: isLists) {
                    counted = true
                }
                offset = nameStart + nameLength
            }
        }
    }

    /// What polling compares: the status file's inode, size and modification time, and the
    /// lists folder's modification time (zeros for what is missing).
    private static func look(at places: Places) -> [Int] {
        func identity(_ path: String, whole: Bool) -> [Int] {
            var status = stat()
            guard stat(path, &status) == 0 else { return [0, 0, 0, 0] }
            return whole ? [Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
                : [0, 0, status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
        }
        return identity(places.administrativeDirectory + "/status", whole: true) + (places.lists.map { identity($0, whole: false) } ?? [])
    }

    /// `status` in dpkg's folder; in the lists' folder every list, not apt's lock or the
    /// partial downloads.
    static func counts(_ name: String, inLists: Bool) -> Bool {
        inLists ? !(name.isEmpty || name == "lock" || name == "partial" || name == "auxfiles") : name == "status"
    }

    private static func isHeld(_ path: String) -> Bool {
        if case .held = DpkgLock.state(ofLockFile: path) { return true }
        return false
    }
}

extension PackageStateWatcher.Places {
    /// The folders of `environment`'s root.
    public init(_ environment: APTEnvironment) {
        self.init(administrativeDirectory: environment.administrativeDirectory, lists: environment.lists)
    }
}
