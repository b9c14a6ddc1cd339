import Foundation
import InstallEngine

/// Benchmarks of manifest loading: a real size, and the hostile files the limits refuse.
enum ManifestBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "manifest-load", run: loadAndRefuse),
    ]

    /// Loads a manifest of 10,000 updates written out (100 jobs of 100), then times the refusal
    /// of the two expansion bombs: 3,000 jobs aliasing a job of 3,000 aliased updates (54 KB),
    /// and eight levels of `<<: [*a, *a, …]` ten wide (611 bytes). Median of 5 runs each.
    static func loadAndRefuse() async {
        var real = ["jobs:"]
        for job in 0..<100 {
            real.append("  - name: job \(job)\n    updates:")
            for update in 0..<100 {
                real.append("      - id: u\(job)-\(update)\n        title: Update \(job) \(update)\n        install: [/bin/true, x]\n        size: 1000")
            }
        }
        var aliases = ["defs:", "  u: &u {id: x, install: 'true'}", "  j: &j", "    name: J", "    updates:"]
        aliases += Array(repeating: "      - *u", count: 3000)
        aliases += ["jobs:"] + Array(repeating: "  - *j", count: 3000)
        var merges = ["a0: &a0 {x: 1, y: 2}"]
        for level in 1...8 {
            merges.append("a\(level): &a\(level)\n  <<: [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        merges.append("jobs:\n  - name: j\n    <<: *a8\n    updates: [{id: z, install: 'true'}]")

        for (name, text) in [("10,000 updates", real), ("alias bomb (54 KB)", aliases), ("merge-key bomb (611 B)", merges)] {
            let yaml = text.joined(separator: "\n")
            let clock = ContinuousClock()
            var times: [Duration] = []
            var outcome = ""
            for _ in 0..<5 {
                times.append(clock.measure {
                    do {
                        let manifest = try ManifestLoader.load(yaml: yaml, path: "/bench/m.yaml")
                        outcome = "loaded \(manifest.updateCount) updates"
                    } catch let error as ManifestErrors {
                        outcome = "refused: \(error.errors.first?.message ?? "")"
                    } catch {
                        outcome = "failed: \(error)"
                    }
                })
            }
            let median = times.sorted()[2]
            let milliseconds = Double(median.components.seconds) * 1000 + Double(median.components.attoseconds) / 1e15
            print("  \(name): median \(String(format: "%.1f", milliseconds)) ms (\(yaml.utf8.count) bytes); \(outcome)")
        }
    }
}
