import DequeModule

/// What waits for one consumer of engine events (a daemon client, the monitor's loop): the one
/// place between the engine and that consumer where progress is coalesced and output
/// summarised. A value with no threads and no clock of its own (the caller says what time it
/// is), so its rules are tested on values.
///
/// - Every event that changes state (queued, started, ended, completed, added, abort asked,
///   cleaned up) and every item pushed with `pushKept` (a reply) is kept, in order.
/// - Once more than `coalescesProgressAfter` bytes wait (a consumer that fell behind; 0: always),
///   progress is coalesced per update, the newest winning: it replaces the update's progress
///   still waiting unless something else of the update (an output line kept) or of its job (a
///   state change) was queued after that one; then it waits behind it. So progress never moves
///   across a state change of its job or a line of its update kept as it came, and an update's
///   last progress always comes before its completion. (The newest lines kept after a count while
///   summarising do not hold progress back: the update's newest progress may come before them.)
/// - Output lines are kept while what waits stays within `limit` bytes. Past it the outbox
///   summarises until what waits has fallen to half the limit: an update's lines become one
///   count (`OutboxDelivery.linesNotShown`) in the place of the first line not kept, followed
///   by the newest `keepsNewest` of them (a monitor's tail shows the latest lines). So what
///   waits is bounded by `limit` plus the state changes and, per update, one progress, one
///   count and `keepsNewest` lines, whatever the flood; a slow consumer is never dropped for it.
/// - A consumer that takes nothing for a long time while something waits is `stalled`: the
///   only one its owner should close.
public struct SubscriberOutbox<Payload> {
    fileprivate enum Slot {
        case kept(Payload, size: Int)
        case progress(Payload, size: Int)
        /// Lines not kept, then the newest `keepsNewest` lines of those that came after them.
        case linesNotShown(UpdateKey, count: Int, newest: Deque<(line: Payload, size: Int)>)
    }

    /// What a count of lines not shown costs in `byteCount` (its encoding is about so long).
    public static var summaryCost: Int { 128 }

    /// Bytes waiting past which output lines are summarised.
    public let limit: Int
    /// Lines of each update kept after its count while summarising: the newest.
    public let keepsNewest: Int
    /// Bytes waiting past which progress is coalesced: below, a consumer that keeps up gets
    /// every progress event (every phase of a package, every poll of a task).
    public let coalescesProgressAfter: Int
    /// The bytes waiting: pushed sizes, with `summaryCost` for each count.
    public private(set) var byteCount = 0
    /// Whether output lines are being summarised now (the consumer fell behind and has not
    /// caught up to half the limit).
    public private(set) var isSummarising = false
    /// Every output line summarised so far, taken or not.
    public private(set) var linesNotShown = 0

    private var slots: Deque<Slot> = []
    /// The number of `slots.first` among every slot ever queued: slots are named by number, so
    /// that taking from the front does not move them.
    private var firstNumber = 0
    /// The slot of each update's progress that a newer one may still replace.
    private var openProgress: [UpdateKey: Int] = [:]
    /// The slot of each update's count of lines that more lines may still join.
    private var openCounts: [UpdateKey: Int] = [:]
    /// When a check first saw items waiting that nothing took since (`stalled`).
    private var waitingSince: ContinuousClock.Instant?

    /// - Parameters:
    ///   - limit: bytes that may wait before output lines are summarised (at least 1).
    ///   - keepsNewest: while summarising, the newest lines of each update kept after its count
    ///     (0: none, every line past the limit is counted).
    ///   - coalescesProgressAfter: bytes that may wait before progress is coalesced (0: always,
    ///     for a consumer that shows only the newest, such as the monitor).
    public init(limit: Int, keepsNewest: Int = 0, coalescesProgressAfter: Int = 0) {
        self.limit = max(1, limit)
        self.keepsNewest = max(0, keepsNewest)
        self.coalescesProgressAfter = max(0, coalescesProgressAfter)
    }

    /// Nothing waits.
    public var isEmpty: Bool { slots.isEmpty }

    /// Items and counts waiting.
    public var count: Int { slots.count }

    /// Queues `event`, carried as `payload` (its encoding, or the event itself) of `size` bytes,
    /// by the rules above.
    public mutating func push(_ event: EngineEvent, payload: Payload, size: Int) {
        switch event.kind {
        case .progress(let progress):
            pushProgress(payload, size: size, of: progress.updateKey)
        case .output(let output):
            pushOutput(payload, size: size, of: output.updateKey)
        default:
            // A state change: nothing of its job may move across it.
            closeSlots { $0.job == event.job }
            append(.kept(payload, size: size), size: size)
        }
    }

    /// Queues an item that is not an engine event (a reply): kept, in order.
    public mutating func pushKept(_ payload: Payload, size: Int) {
        append(.kept(payload, size: size), size: size)
    }

    /// Takes what waits from the front, oldest first: at least one item when any waits, and
    /// no more once `maxBytes` have been taken. What stays can still be coalesced.
    public mutating func take(maxBytes: Int = .max) -> [OutboxDelivery<Payload>] {
        var taken: [OutboxDelivery<Payload>] = []
        var bytes = 0
        while bytes < maxBytes, let slot = slots.popFirst() {
            let number = firstNumber
            firstNumber += 1
            switch slot {
            case .kept(let payload, let size):
                bytes += size
                taken.append(.item(payload))
            case .progress(let payload, let size):
                bytes += size
                taken.append(.item(payload))
                Self.closeIfOpen(number, in: &openProgress)
            case .linesNotShown(let key, let count, let newest):
                bytes += Self.summaryCost
                if count > 0 { taken.append(.linesNotShown(key, count: count)) }
                for (line, size) in newest {
                    bytes += size
                    taken.append(.item(line))
                }
                Self.closeIfOpen(number, in: &openCounts)
            }
        }
        byteCount -= bytes
        waitingSince = nil
        if slots.isEmpty {
            // Nothing is open any more: the dictionaries' storage goes as well.
            openProgress = [:]
            openCounts = [:]
        }
        if isSummarising && byteCount <= limit / 2 { isSummarising = false }
        return taken
    }

    /// The consumer took something from elsewhere (a snapshot sent ahead of these items): it
    /// reads, so the wait `stalled` measures starts again.
    public mutating func consumerRead() {
        waitingSince = nil
    }

    /// Whether items have waited for `patience` or longer with nothing taken: the consumer
    /// reads nothing. The wait starts at the first call that sees items waiting after the last
    /// `take`, so call it regularly (the daemon does every second while something waits);
    /// false while nothing waits.
    public mutating func stalled(now: ContinuousClock.Instant, patience: Duration) -> Bool {
        guard !slots.isEmpty else {
            waitingSince = nil
            return false
        }
        guard let since = waitingSince else {
            waitingSince = now
            return false
        }
        return now - since >= patience
    }

    // MARK: - Private

    private mutating func pushProgress(_ payload: Payload, size: Int, of key: UpdateKey) {
        if byteCount >= coalescesProgressAfter, let number = openProgress[key],
           case .progress(_, let oldSize) = slots[number - firstNumber] {
            slots[number - firstNumber] = .progress(payload, size: size)
            byteCount += size - oldSize
        } else {
            openProgress[key] = firstNumber + slots.count
            append(.progress(payload, size: size), size: size)
        }
    }

    private mutating func pushOutput(_ payload: Payload, size: Int, of key: UpdateKey) {
        if isSummarising && byteCount <= limit / 2 { isSummarising = false }
        if !isSummarising && byteCount + size > limit { isSummarising = true }
        guard !isSummarising else {
            var count = 0
            var newest: Deque<(line: Payload, size: Int)> = []
            let position: Int
            if let number = openCounts[key], case .linesNotShown(_, let waiting, let lines) = slots[number - firstNumber] {
                position = number - firstNumber
                count = waiting
                newest = lines
                // Frees the slot's hold on the lines, so they change in place.
                slots[position] = .linesNotShown(key, count: 0, newest: [])
            } else {
                openCounts[key] = firstNumber + slots.count
                append(.linesNotShown(key, count: 0, newest: []), size: Self.summaryCost)
                position = slots.count - 1
            }
            newest.append((payload, size))
            byteCount += size
            if newest.count > keepsNewest, let oldest = newest.popFirst() {
                // The oldest of the newest becomes part of the count.
                byteCount -= oldest.size
                count += 1
                linesNotShown += 1
            }
            slots[position] = .linesNotShown(key, count: count, newest: newest)
            return
        }
        // A line kept: the update's waiting progress and count stay before it.
        openProgress[key] = nil
        openCounts[key] = nil
        append(.kept(payload, size: size), size: size)
    }

    private mutating func append(_ slot: Slot, size: Int) {
        slots.append(slot)
        byteCount += size
    }

    private mutating func closeSlots(where isClosed: (UpdateKey) -> Bool) {
        if !openProgress.isEmpty { openProgress = openProgress.filter { !isClosed($0.key) } }
        if !openCounts.isEmpty { openCounts = openCounts.filter { !isClosed($0.key) } }
    }

    private static func closeIfOpen(_ number: Int, in open: inout [UpdateKey: Int]) {
        // The slot was taken: whichever update had it open has none now.
        guard let key = open.first(where: { $0.value == number })?.key else { return }
        open[key] = nil
    }
}

extension SubscriberOutbox: Sendable where Payload: Sendable {}
extension SubscriberOutbox.Slot: Sendable where Payload: Sendable {}
