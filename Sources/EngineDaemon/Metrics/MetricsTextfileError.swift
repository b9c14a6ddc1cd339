/// A textfile that could not be written: what was being done, the path and the system's reason.
public struct MetricsTextfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `cannot write /var/lib/prometheus/node-exporter/.installtop.prom.Ab12Cd: No space left on device`.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
