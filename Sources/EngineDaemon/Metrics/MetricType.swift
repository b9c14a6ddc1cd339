/// What a metric family measures, as the `# TYPE` line of Prometheus' text format names it.
public enum MetricType: String, Sendable, Hashable {
    /// Only goes up while the engine runs (a count of jobs); starts again from zero when the
    /// engine restarts, which Prometheus' `rate` and `increase` take for a reset.
    case counter
    /// Goes up and down (a count of pending packages, a time).
    case gauge
    /// A count and a sum of observations (`_count`, `_sum`), without quantiles.
    case summary
}
