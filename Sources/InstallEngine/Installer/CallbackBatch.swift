/// A job's callbacks on their way to its installer's callback queue: progress callbacks are
/// collected while the job's executor performs its inputs and queued together, in order, in
/// one item of the callback queue (joining the job's item before it while that is still the
/// queue's last and has not started); the completed callback is queued after all of them
/// (rule 9). Lives in the job's state: it is changed under the job's lock only, so callbacks are
/// queued in the order of the changes (rule 8) and `release()` takes effect at once (rule 15).
struct CallbackBatch {
    /// How many progress callbacks are queued at once: one turn of the callback queue's lock
    /// for so many, not one for each, and a flood's never wait in one long array here (512
    /// cost less CPU than 64 in the apt-status-stream benchmark).
    static let queuedAtOnce = 512

    private var onProgress: InstallationProgressChangedCallback?
    private var onCompleted: InstallationCompletedCallback?
    /// Progress callbacks not queued yet, in order. Kept here so its storage serves every batch.
    private var notifications: [InstallationProgressChangedArgs] = []
    /// Whether the last of `notifications` came directly before what is performed next, in the
    /// same input, so that a later snapshot of the same update may take its place.
    private var lastIsReplaceable = false
    /// The progress callbacks queued last, which later ones join while their item is the
    /// callback queue's last and has not started.
    private var openBatch: SerialWorkBatch<InstallationProgressChangedArgs>?
    /// The ticket of the last callback item queued.
    private(set) var lastTicket: UInt64 = 0
    /// The ticket of the completed callback, once it is queued.
    private(set) var completionTicket: UInt64?

    init(onProgress: InstallationProgressChangedCallback?, onCompleted: InstallationCompletedCallback?) {
        self.onProgress = onProgress
        self.onCompleted = onCompleted
    }

    /// Whether progress callbacks are wanted (the machine makes no snapshots otherwise).
    var wantsProgress: Bool { onProgress != nil }

    /// Adds the progress callback `args`. Within one input (a driver's reports made together), a
    /// progress callback directly followed by another about the same update with the same
    /// status texts is not delivered: the later snapshot carries everything the earlier one
    /// said (the percents as they stand, the same texts); every text an update or the job shows
    /// is still delivered. This is not a subscriber's coalescing: a consumer that is behind
    /// gets the latest figures from its own `SubscriberOutbox` (a daemon client, the monitor)
    /// or the JSON writer's 50 ms limit.
    mutating func add(_ args: InstallationProgressChangedArgs, of job: InstallationJob, on queue: SerialWorkQueue) {
        guard onProgress != nil else { return }
        if lastIsReplaceable, let last = notifications.last, Self.supersedes(args, last) {
            notifications[notifications.count - 1] = args
        } else {
            if notifications.count >= Self.queuedAtOnce { self.queue(for: job, on: queue) }
            notifications.append(args)
        }
        lastIsReplaceable = true
    }

    /// Something other than a progress callback happened (or the input ended): what comes next
    /// is no longer directly after the last callback.
    mutating func interrupt() {
        lastIsReplaceable = false
    }

    /// Queues the progress callbacks collected so far behind everything queued, in a batch with
    /// the job's callbacks just before them when nothing came between.
    mutating func queue(for job: InstallationJob, on queue: SerialWorkQueue) {
        guard !notifications.isEmpty else { return }
        defer {
            notifications.removeAll(keepingCapacity: true)
            lastIsReplaceable = false
        }
        guard let onProgress else { return }
        lastTicket = queue.enqueue(notifications, joining: &openBatch) { [job] batch in
            for args in batch { onProgress(job, args) }
        }
    }

    /// Queues the completed callback after every progress callback (rule 9); nothing is queued
    /// after it. Returns its ticket.
    mutating func queueCompletion(of job: InstallationJob, on queue: SerialWorkQueue) -> UInt64 {
        self.queue(for: job, on: queue)
        // No callback comes after it: the buffer of a flood's callbacks goes too.
        notifications = []
        openBatch = nil
        let onCompleted = onCompleted
        let ticket = queue.enqueue { [job] in onCompleted?(job) }
        completionTicket = ticket
        lastTicket = ticket
        return ticket
    }

    /// Forgets the callbacks (`cleanUp`, rule 15): none is queued from now on.
    mutating func release() {
        onProgress = nil
        onCompleted = nil
        notifications = []
    }

    /// Whether `later`, an update's progress, makes `earlier` about the same update, with the
    /// same texts, needless (only figures changed).
    private static func supersedes(_ later: InstallationProgressChangedArgs, _ earlier: InstallationProgressChangedArgs) -> Bool {
        guard case .progress(let index) = earlier.change, case .progress(index) = later.change else { return false }
        // The update's own text (the change's figures) as well as the snapshot's: the
        // snapshot's current update is the machine's bookkeeping, not a promise about which
        // update a change is of.
        return later.figures?.message == earlier.figures?.message
            && later.progress.currentUpdateMessage == earlier.progress.currentUpdateMessage
            && later.progress.jobMessage == earlier.progress.jobMessage
    }
}
