import InstallEngine
import Synchronization

/// An `UpdateReporter` that keeps every report, for assertions after the outcome.
final class RecordingReporter: UpdateReporter {
    private let recorded = Mutex<[UpdateReport]>([])

    func report(_ report: UpdateReport) {
        recorded.withLock { $0.append(report) }
    }

    /// Every report so far, in order.
    var reports: [UpdateReport] { recorded.withLock { $0 } }

    /// The output lines of one stream, in order.
    func lines(_ stream: StandardStream) -> [String] {
        reports.compactMap { report in
            if case .output(stream, let line) = report { return line }
            return nil
        }
    }

    /// Every report that is not an output line: what the progress channel said.
    var channelReports: [UpdateReport] {
        reports.filter { report in
            if case .output = report { return false }
            return true
        }
    }
}
