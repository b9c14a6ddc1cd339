import EngineDaemon
import Testing

/// Where serve writes its textfile: the directory given, Debian's node_exporter directory when
/// it exists, or nowhere.
@Suite("Metrics: where the textfile goes")
struct MetricsTextfileLocationTests {
    @Test("the given directory wins; --no-metrics-textfile wins over all; Debian's directory only when it exists")
    func choice() {
        let exists: (String) -> Bool = { $0 == MetricsTextfileLocation.debianDirectory }
        let missing: (String) -> Bool = { _ in false }
        #expect(MetricsTextfileLocation.directory(given: "/srv/metrics", disabled: false, isDirectory: exists) == "/srv/metrics")
        #expect(MetricsTextfileLocation.directory(given: nil, disabled: false, isDirectory: exists) == "/var/lib/prometheus/node-exporter")
        #expect(MetricsTextfileLocation.directory(given: nil, disabled: false, isDirectory: missing) == nil)
        #expect(MetricsTextfileLocation.directory(given: nil, disabled: true, isDirectory: exists) == nil)
    }
}
