import Foundation

/// The middle of `values`: for an even count the upper of the two middle ones, as every figure
/// in Documentation/BENCHMARKS.md was taken; `.zero` when there are none (a benchmark that measured nothing says
/// so itself).
func median<Value: Comparable & AdditiveArithmetic>(_ values: [Value]) -> Value {
    let sorted = values.sorted()
    return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`), printed beside a benchmark's figures
/// because on a shared machine they depend on what else runs; `?` when they cannot be read.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}
