import Synchronization

/// What apt fetches before an apt job exists (`APTResolveOnceRun`), as lines on stderr, by the
/// rule `--plain` prints a job's text with (`PlainJobMessages`): a line when the text changes,
/// at most one a second, and always the last one.
final class APTDownloadLines: Sendable {
    /// The download's texts, kept as those of one job.
    private let messages = Mutex(PlainJobMessages())
    private static let job = 0

    /// A new text from apt's downloads.
    func say(_ text: String) {
        let line = messages.withLock { $0.received(text, job: Self.job, now: .now) }
        if let line { StandardOutput.stderr.line("installtop: \(line)") }
    }

    /// The downloads are over: the last text, unless it was printed already.
    func finish() {
        let line = messages.withLock { $0.completed(job: Self.job) }
        if let line { StandardOutput.stderr.line("installtop: \(line)") }
    }
}
