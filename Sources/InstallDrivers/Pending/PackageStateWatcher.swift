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
public final class PackageStateWatcher: Sendable {
    /// The folders watched and the files in them that count.
    public struct Places: Sendable, Hashable {
        /// dpkg's database (`Dir::State::status`'s folder): its `status` file counts.
        public var administrativeDirectory: String
        /// apt's lists (`Dir::State::lists`): every file but its `lock` and `partial/`;
        /// `nil` when apt names none.
        public var lists: String?

        public init(administrativeDirectory: String, lists: String?) {
            self.administrativeDirectory = administrativeDirectory
            self.lists = lists
        }

        /// The folders of `environment`'s root.
        public init(_ environment: APTEnvironment) {
            self.init(administrativeDirectory: environment.administrativeDirectory, lists: environment.lists)
        }

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
    private let inotify: Int32
    /// What each watch descriptor watches: the administrative directory's or the lists'.
    private let watches: [Int32: Bool]
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = Mutex(State())
    /// Signalled when the thread ends.
    private let ended = DispatchSemaphore(value: 0)

    /// Starts watching `places` on a thread of its own, calling `report` on that thread (it must
    /// be quick: it only notes the change). A folder that does not exist is not watched (a
    /// root whose apt never fetched lists has no lists folder).
    /// - Throws: `Failure` when inotify or the thread cannot be had, or neither folder can be watched.
    public init(places: Places, quiet: Duration = .milliseconds(300),
                report: @escaping @Sendable (Change) -> Void) throws(Failure) {
        self.places = places
        self.quiet = quiet
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw Failure(description: "inotify: \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
        var watches: [Int32: Bool] = [:]
        for (path, isLists) in [(places.administrativeDirectory, false)] + (places.lists.map { [($0, true)] } ?? []) {
            let descriptor = inotify_add_watch(inotify, path, mask)
            if descriptor >= 0 { watches[descriptor] = isLists }
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard !watches.isEmpty, pipe(&pipeEnds) == 0 else {
            let reason = watches.isEmpty ? "cannot watch \(places.administrativeDirectory): \(String(cString: strerror(errno)))"
                : "pipe: \(String(cString: strerror(errno)))"
            close(inotify)
            throw Failure(description: reason)
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.watches = watches
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        if let error = EngineThread.start(named: "installtop-watch", { [self] in run(report: report) }) {
            close(inotify)
            close(wakeRead)
            close(wakeWrite)
            throw Failure(description: "cannot start a thread: \(error.description)")
        }
    }

    deinit {
        close(inotify)
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

    private func run(report: @Sendable (Change) -> Void) {
        defer { ended.signal() }
        var lastChange: ContinuousClock.Instant?
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !state.withLock(\.stopped) {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let timeout: Int32
            if let lastChange {
                let left = lastChange + quiet - .now
                timeout = left <= .zero ? 0 : Int32(max(1, left / .milliseconds(1)))
            } else {
                timeout = -1
            }
            guard poll(&descriptors, 2, timeout) >= 0 || errno == EINTR else { return }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents != 0, readChanges(into: &buffer) {
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
