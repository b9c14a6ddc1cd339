import EngineWire
import InstallEngine

/// dpkg as a source of observed jobs (rules 28–31): the transactions its hooks report
/// (installtop-relay, `installtop hooks install`), and, when `dpkgLog` names its log, those its
/// lock and log show that no hook reports (`DpkgLogWatcher`). One `ObservedTransactions` takes
/// both, so a transaction both show is one job.
public struct DpkgObservedSource: ObservedSource {
    /// The dpkg whose lock and log show the installs no hooks report; `nil` follows only the
    /// hooks.
    public let dpkgLog: DpkgLogSource?

    public init(dpkgLog: DpkgLogSource?) {
        self.dpkgLog = dpkgLog
    }

    public var startNote: String {
        if let dpkgLog {
            return "following dpkg's lock in \(dpkgLog.administrativeDirectory) and its log \(dpkgLog.logPath): installs no hooks report show as observed jobs"
        }
        return "following no dpkg log (apt-config cannot say where it is, or dpkg keeps none): installs only the hooks report show"
    }

    public func start(on queue: JobQueue) -> any ObservedWatch {
        let observed = ObservedTransactions(queue: queue, dpkgLog: dpkgLog)
        return DpkgObservedWatch(observed: observed, log: dpkgLog.map { DpkgLogWatcher(observed: observed, source: $0) })
    }
}
