import EngineWire
import InstallEngine
import Synchronization

/// An engine's node_exporter textfile (Documentation/METRICS.md): `EngineMetrics` fed by the
/// queue's events, the pending snapshot and the commit-confirmed runs, written by
/// `MetricsTextfileWriter` after each job is queued, starts or ends, each update's end and each change of the
/// pending state or the armed runs, at most once a second (`ThrottledWrites`), the last state
/// always. A write that fails is logged once, with the reason, until one succeeds again (said
/// too); the engine goes on either way.
public final class MetricsTextfile: Sendable {
    private let metrics: EngineMetrics
    private let writer: MetricsTextfileWriter
    private let writes: ThrottledWrites
    private let subscription = Mutex<EventSubscription?>(nil)

    /// - Parameters:
    ///   - directory: node_exporter's textfile collector's directory; the file is
    ///     `installtop.prom` in it.
    ///   - interval: the least time between two writes.
    ///   - log: where a failed write (and the first good one after) is said.
    public init(directory: String, metrics: EngineMetrics = EngineMetrics(), interval: Duration = .seconds(1),
                log: @escaping @Sendable (String) -> Void) {
        let writer = MetricsTextfileWriter(directory: directory)
        self.metrics = metrics
        self.writer = writer
        // What was said of the last write: a failure is logged when it is news.
        let lastFailure = Mutex<String?>(nil)
        writes = ThrottledWrites(interval: interval) {
            do throws(MetricsTextfileError) {
                try writer.write(MetricFamily.exposition(metrics.families()))
                if lastFailure.withLock({ $0.take() }) != nil { log("metrics written again to \(writer.path)") }
            } catch {
                let news = lastFailure.withLock { last -> Bool in
                    defer { last = error.message }
                    return last != error.message
                }
                if news { log("warning: metrics not written: \(error.message)") }
            }
        }
    }

    /// The file node_exporter reads.
    public var path: String { writer.path }

    /// Follows `queue`'s jobs, `pending`'s snapshots and `armed`'s runs (each source that is
    /// there), and writes the file at once.
    public func start(queue: JobQueue, pending: (any PendingSnapshotSource)?, armed: (any ArmedRunsSource)?) {
        let subscription = queue.subscribe { [metrics, writes] event in
            switch event.kind {
            case .updateStarted:
                metrics.record(event)
            case .jobQueued, .jobStarted, .updateCompleted, .jobCompleted:
                metrics.record(event)
                writes.request()
            default:
                // Progress and output, many a second: they change nothing written.
                break
            }
        }
        self.subscription.withLock { $0 = subscription }
        pending?.observe { [metrics, writes] state in
            metrics.record(state)
            writes.request()
        }
        armed?.observe { [metrics, writes] runs in
            metrics.record(runs)
            writes.request()
        }
        writes.request()
    }

    /// Stops following the queue and writes the last state; the file stays for node_exporter
    /// (its `node_textfile_mtime_seconds` tells how old it is).
    public func stop() {
        subscription.withLock { $0.take() }?.cancel()
        writes.stop()
    }
}
