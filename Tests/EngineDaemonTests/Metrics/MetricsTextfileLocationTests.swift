import EngineDaemon
import Testing

/// Where serve writes its textfile: the directory given, Debian's node_exporter directory when
/// it exists and the engine is the machine's, or nowhere.
@Suite("Metrics: where the textfile goes")
struct MetricsTextfileLocationTests {
    private let machine = SocketLocation.machineSocket

    @Test("the given directory wins; --no-metrics-textfile wins over all; Debian's directory only when it exists")
    func choice() {
        let exists: (String) -> Bool = { $0 == MetricsTextfileLocation.debianDirectory }
        let missing: (String) -> Bool = { _ in false }
        #expect(MetricsTextfileLocation.directory(given: "/srv/metrics", disabled: false, socket: machine, isDirectory: exists) == "/srv/metrics")
        #expect(MetricsTextfileLocation.directory(given: nil, disabled: false, socket: machine, isDirectory: exists) == "/var/lib/prometheus/node-exporter")
        #expect(MetricsTextfileLocation.directory(given: nil, disabled: false, socket: machine, isDirectory: missing) == nil)
        #expect(MetricsTextfileLocation.directory(given: nil, disabled: true, socket: machine, isDirectory: exists) == nil)
    }

    @Test("an engine on a socket of its own (a user's, a test's) writes only where it is told, never Debian's directory")
    func privateEngine() {
        let exists: (String) -> Bool = { _ in true }
        #expect(MetricsTextfileLocation.directory(given: nil, disabled: false, socket: "/tmp/x/installtop.sock", isDirectory: exists) == nil)
        #expect(MetricsTextfileLocation.directory(given: "/srv/metrics", disabled: false, socket: "/tmp/x/installtop.sock", isDirectory: exists) == "/srv/metrics")
    }
}
