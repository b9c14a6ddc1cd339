/// One line of a metric family in Prometheus' text format: the family's name with `suffix`
/// (`_sum`, `_count` of a summary; empty otherwise), its labels and its value. No timestamp:
/// node_exporter's textfile collector refuses samples that carry one.
public struct MetricSample: Sendable, Hashable {
    /// Appended to the family's name: `""`, or `_sum` and `_count` for a summary.
    public var suffix: String
    /// The labels in the order they are written; names follow `[a-zA-Z_][a-zA-Z0-9_]*` and
    /// never begin with `__` (the caller's duty, checked when the family is written).
    public var labels: [MetricLabel]
    public var value: Double

    public init(suffix: String = "", labels: [MetricLabel] = [], value: Double) {
        self.suffix = suffix
        self.labels = labels
        self.value = value
    }
}
