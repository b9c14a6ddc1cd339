/// A benchmark and the name that selects it on the command line.
struct Benchmark: Sendable {
    var name: String
    var run: @Sendable () async -> Void
}
