import InstallEngine
import Synchronization

/// An `UpdateReporter` that keeps only counts, for floods too big to record.
final class CountingReporter: UpdateReporter {
    struct Counts {
        var stdoutLines = 0
        var stderrLines = 0
        var longestLine = 0
        var progressReports = 0
        var lastPercent: Double?
        var otherReports = 0
    }

    private let state = Mutex(Counts())

    func report(_ report: UpdateReport) {
        state.withLock { counts in
            switch report {
            case .output(let stream, let line):
                if stream == .stdout { counts.stdoutLines += 1 } else { counts.stderrLines += 1 }
                counts.longestLine = max(counts.longestLine, line.utf8.count)
            case .progress(let percent, _):
                counts.progressReports += 1
                counts.lastPercent = percent
            default:
                counts.otherReports += 1
            }
        }
    }

    var counts: Counts { state.withLock { $0 } }
}
