import InstallEngine
import Synchronization

/// A driver's reporter that keeps every report, in order, for tests that read them back.
final class RecordingDriverReporter: DriverReporter {
    let reports = Mutex<[DriverReport]>([])
    func report(_ report: DriverReport) { reports.withLock { $0.append(report) } }
    func ended(_ outcome: UpdateRunOutcome) {}
    /// What the reporter says waits for the job (`DriverReporter.backlog`): tests set it.
    let waiting = Atomic<Int>(0)
    var backlog: Int { waiting.load(ordering: .relaxed) }
}
