import InstallEngine
import Monitor
import MonitorRuntime
import PatchPolicy
import Synchronization
import TextBasics

/// Follows a policy's night for the board (`installtop attach --hosts … --night POLICY`): every
/// second the stamp's file is looked at, and when it changed (another inode, size or
/// modification time: the night writes it by renaming a new file over it) it is read on the
/// blocking pool and posted as `HostEvent.night`. A missing stamp is posted as no night; one
/// that cannot be read leaves the last one shown. Nothing is asked of any host.
final class NightStampFollower: Sendable {
    private struct State {
        var timer: Reactor.Timer?
        /// What the file looked like when last read; `nil` before the first look.
        var seen: FileFingerprint?
        var stopped = false
    }

    private let stampFile: StampFile
    private let state = Mutex(State())
    /// How often the file is looked at.
    private static let interval = Duration.seconds(1)

    init(stampFile: StampFile) {
        self.stampFile = stampFile
    }

    /// Looks at once, then every second, until `stop()`.
    func start(posting mailbox: Mailbox) {
        look(posting: mailbox)
    }

    func stop() {
        let timer = state.withLock { state -> Reactor.Timer? in
            state.stopped = true
            defer { state.timer = nil }
            return state.timer
        }
        if let timer { Reactor.shared.cancel(timer) }
    }

    private func look(posting mailbox: Mailbox) {
        let fingerprint = FileFingerprint(path: stampFile.path)
        let changed = state.withLock { state -> Bool in
            guard !state.stopped, state.seen != fingerprint else { return false }
            state.seen = fingerprint
            return true
        }
        if changed && !fingerprint.exists {
            mailbox.post(.monitor(.host(.night(nil))))
        } else if changed {
            let stampFile = stampFile
            BlockingPool.shared.submit {
                // A stamp caught half-written cannot be: the night renames a whole file over it.
                // One that cannot be read leaves the last one shown.
                if let read = try? stampFile.read() { mailbox.post(.monitor(.host(.night(BoardNight(stamp: read))))) }
            }
        }
        state.withLock { state in
            guard !state.stopped else { return }
            state.timer = Reactor.shared.schedule(after: Self.interval) { [self] in look(posting: mailbox) }
        }
    }
}
