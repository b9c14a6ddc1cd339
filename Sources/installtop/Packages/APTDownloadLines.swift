#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What apt fetches before an apt job exists (`APTResolveOnceRun`), as lines on stderr: a line
/// when the text changes, at most one a second (as `--plain` says a job's text), and always
/// the last one.
final class APTDownloadLines: Sendable {
    private struct State {
        var last: String?
        var printed: String?
        var printedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// A new text from apt's downloads.
    func say(_ text: String) {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            state.last = text
            if let at = state.printedAt, now - at < .seconds(1) { return nil }
            state.printed = text
            state.printedAt = now
            return text
        }
        if let line { StandardOutput.stderr.line("installtop: \(line)") }
    }

    /// The downloads are over: the last text, unless it was printed already.
    func finish() {
        let line: String? = state.withLock { state in
            guard let last = state.last, last != state.printed else { return nil }
            state.printed = last
            return last
        }
        if let line { StandardOutput.stderr.line("installtop: \(line)") }
    }
}
