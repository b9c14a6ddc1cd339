import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// What waits to be sent to one client; shared between the engine's callback thread (events),
/// command handlers (replies) and the server's I/O thread (which sends it).
///
/// A client that falls behind a flood is not dropped at once: past `skipThreshold` waiting
/// bytes, output lines and progress events are skipped for it (a monitor shows only the last
/// lines and the latest percentage anyway). When it catches up it gets each update's latest
/// skipped progress and a line saying how many output lines it missed; lifecycle events are
/// never skipped, and flush what was skipped before them so their order holds. A client is
/// dropped when it is more than `limit` bytes behind in all, counting what was skipped: one that
/// stopped reading.
struct ClientOutbox {
    enum Subscription {
        case none
        /// The snapshot is being encoded; live events wait in `held`, in order.
        case replaying(held: [UInt8])
        case live
    }

    /// Bytes not yet taken by the I/O thread.
    var pending: [UInt8] = []
    /// Everything not yet written: `pending` plus what the I/O thread holds.
    var queuedBytes = 0
    /// How far behind (queued plus skipped bytes) the client may fall before it is dropped.
    var limit: Int
    var subscription = Subscription.none
    /// Set when the client must go (dropped for its backlog); the I/O thread closes it.
    var dropReason: String?

    /// Output lines skipped while behind, by update.
    private var skippedLines: [UpdateKey: Int] = [:]
    /// The newest progress event skipped while behind, by update.
    private var skippedProgress = LatestPerUpdate<[UInt8]>()
    /// Bytes skipped since the client last caught up: how far behind it is beyond `queuedBytes`.
    private var behindBytes = 0

    /// Queued bytes past which output and progress are skipped: a quarter of the first limit
    /// (the limit grows by the size of the snapshot; this does not).
    let skipThreshold: Int

    init(limit: Int) {
        self.limit = limit
        skipThreshold = max(1, limit / 4)
    }

    /// Queues bytes: an event of a client still being sent its snapshot waits behind it, a
    /// reply goes out at once. Returns false (and marks the client dropped) when that passes
    /// the limit.
    mutating func enqueue(_ bytes: [UInt8], isEvent: Bool) -> Bool {
        guard dropReason == nil else { return false }
        let held: Int
        if case .replaying(let waiting) = subscription { held = waiting.count } else { held = 0 }
        guard queuedBytes + held + behindBytes + bytes.count <= limit else {
            drop()
            return false
        }
        if isEvent, case .replaying(var waiting) = subscription {
            subscription = .live  // frees the held array's storage for appending in place
            waiting.append(contentsOf: bytes)
            subscription = .replaying(held: waiting)
        } else {
            pending.append(contentsOf: bytes)
            queuedBytes += bytes.count
        }
        return true
    }

    /// Queues a live engine event (`line` is its encoding), skipping it when it is output or
    /// progress and the client is behind.
    mutating func enqueue(_ event: EngineEvent, line: [UInt8]) {
        guard dropReason == nil else { return }
        if case .live = subscription, queuedBytes > skipThreshold {
            switch event.kind {
            case .output(let output):
                skippedLines[output.updateKey, default: 0] += 1
                skip(line.count)
                return
            case .progress(let progress):
                skippedProgress.keep(line, for: progress.updateKey)
                skip(line.count)
                return
            default:
                break
            }
        }
        let isDroppable: Bool
        switch event.kind {
        case .output, .progress: isDroppable = true
        default: isDroppable = false
        }
        if queuedBytes <= skipThreshold / 2 { behindBytes = 0 }
        // What was skipped goes first, so that a completion never precedes a stale percentage.
        if !isDroppable || queuedBytes <= skipThreshold / 2 { flushSkipped() }
        _ = enqueue(line, isEvent: true)
    }

    /// Sends what was skipped (the latest progress and a note of the lines missed, per
    /// update) once the client has caught up; the I/O thread calls it after writing. Returns
    /// whether anything was queued.
    mutating func catchUp() -> Bool {
        guard queuedBytes <= skipThreshold / 2 else { return false }
        behindBytes = 0
        guard !skippedLines.isEmpty || !skippedProgress.isEmpty else { return false }
        flushSkipped()
        return true
    }

    // MARK: - Private

    private mutating func skip(_ count: Int) {
        behindBytes += count
        if queuedBytes + behindBytes > limit { drop() }
    }

    private mutating func drop() {
        dropReason = "more than \(limit >> 20) MiB of events behind: it stopped reading"
        pending = []
        subscription = .none
        skippedLines = [:]
        skippedProgress = LatestPerUpdate()
        behindBytes = 0
    }

    private mutating func flushSkipped() {
        guard !skippedLines.isEmpty || !skippedProgress.isEmpty else { return }
        let lines = skippedLines
        let progress = skippedProgress
        skippedLines = [:]
        skippedProgress = LatestPerUpdate()
        var bytes: [UInt8] = []
        for key in Set(lines.keys).union(progress.keys).sorted() {
            if let count = lines[key] {
                let note = "installtop: \(count) line\(count == 1 ? "" : "s") of output skipped here: this client fell behind"
                bytes += EventCoding.line(EngineEvent(kind: .output(job: key.job, index: key.index, stream: .stderr, line: note)))
            }
            if let line = progress[key] { bytes += line }
        }
        _ = enqueue(bytes, isEvent: true)
    }
}
