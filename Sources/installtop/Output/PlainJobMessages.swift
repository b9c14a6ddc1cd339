/// Which of a job's status texts (`JobState.jobMessage`: apt's downloads, a repair's steps)
/// `--plain` prints: a line when the text changes, at most one a second per job, and always
/// the last one (a text held back is printed once its second is over, when the text is
/// cleared, or when the job completes). A cleared text prints nothing of its own.
struct PlainJobMessages {
    static let interval = Duration.seconds(1)

    /// The newest text per job, printed or not.
    private var latest: [Int: String] = [:]
    /// When each job's last line was printed.
    private var printedAt: [Int: ContinuousClock.Instant] = [:]
    /// The newest text of each job that waits for its second to be over.
    private var held: [Int: String] = [:]

    /// Whether a text waits to be printed.
    var isHolding: Bool { !held.isEmpty }

    /// Job `job`'s text is now `text` (`nil`: it has none). Returns the text to print now: the
    /// new one, or, when it was cleared, the one held back before.
    mutating func received(_ text: String?, job: Int, now: ContinuousClock.Instant) -> String? {
        guard text != latest[job] else { return nil }
        latest[job] = text
        guard let text else { return held.removeValue(forKey: job) }
        if let at = printedAt[job], now - at < Self.interval {
            held[job] = text
            return nil
        }
        held[job] = nil
        printedAt[job] = now
        return text
    }

    /// The held texts whose second is over, by job; they count as printed at `now`.
    mutating func due(now: ContinuousClock.Instant) -> [(job: Int, text: String)] {
        let ready = held.filter { job, _ in printedAt[job].map { now - $0 >= Self.interval } ?? true }.sorted { $0.key < $1.key }
        for (job, _) in ready {
            held[job] = nil
            printedAt[job] = now
        }
        return ready.map { (job: $0.key, text: $0.value) }
    }

    /// Job `job` completed: its held text, to print before the completion line; the job is
    /// forgotten.
    mutating func completed(job: Int) -> String? {
        latest[job] = nil
        printedAt[job] = nil
        return held.removeValue(forKey: job)
    }
}
