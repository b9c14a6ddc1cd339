/// The count and sum of a summary's observations (durations), for its `_count` and `_sum`.
struct SummaryAccumulator: Sendable, Hashable {
    var count = 0
    var sum = 0.0

    mutating func observe(_ value: Double) {
        count += 1
        sum += value
    }
}
