/// A label of a sample: `name="value"`, the value any text (escaped when written).
public struct MetricLabel: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
