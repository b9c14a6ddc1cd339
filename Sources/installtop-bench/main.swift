// installtop-bench: prints figures for the process backend, asserts nothing.
// Usage: installtop-bench [benchmark-name]   (no name runs them all)

import Glibc

let benchmarks = ProcessBenchmarks.all
let requested = CommandLine.arguments.dropFirst().first
let selected = benchmarks.filter { requested == nil || $0.name == requested }

if selected.isEmpty {
    print("unknown benchmark \(requested ?? ""); available: \(benchmarks.map(\.name).joined(separator: ", "))")
    exit(2)
}
for benchmark in selected {
    print("== \(benchmark.name)")
    await benchmark.run()
}
