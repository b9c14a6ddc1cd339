// installtop-bench: prints figures for the engine, the process backend and the monitor;
// asserts nothing. Run in release mode: swift run -c release installtop-bench
// Usage: installtop-bench [benchmark-name [its options]]   (no name runs them all)

import Glibc

let benchmarks = ManifestBenchmarks.all + EngineBenchmarks.all + ProcessBenchmarks.all + QueueProcessBenchmarks.all + HistoryBenchmarks.all + MonitorBenchmarks.all + DaemonBenchmarks.all
    + APTBenchmarks.all + APTKeepingBenchmark.all + APTHookKeepingBenchmark.all + APTKeepRealBenchmark.all + APTRealBenchmark.all + DNFRealBenchmark.all + DNFKeepBenchmark.all
    + FleetBenchmarks.all + ObserveBenchmarks.all + RestartScanBenchmarks.all
    + IdleMemoryBenchmark.all + BoardHostsBenchmark.all
let requested = CommandLine.arguments.dropFirst().first
// The observe benchmark's wrapper around each relay the hooks start (not a benchmark).
if requested == "relay-timing" { exit(RelayTiming.run(Array(CommandLine.arguments.dropFirst(2)))) }
let selected = benchmarks.filter { requested == nil || $0.name == requested }

if selected.isEmpty {
    print("unknown benchmark \(requested ?? ""); available: \(benchmarks.map(\.name).joined(separator: ", "))")
    exit(2)
}
for benchmark in selected {
    print("== \(benchmark.name)")
    await benchmark.run()
}
