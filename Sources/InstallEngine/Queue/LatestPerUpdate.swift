/// Keeps only the newest value per update: what the JSON writer holds to write an update's
/// progress at most every 50 ms. Values come back in update order (job, then position), so
/// what is flushed together keeps one stable order. (Daemon clients and the monitor coalesce in
/// their `SubscriberOutbox`, which also keeps the order of an update's events.)
public struct LatestPerUpdate<Value> {
    private var values: [UpdateKey: Value] = [:]

    public init() {}

    public var isEmpty: Bool { values.isEmpty }

    /// The updates that have a value, in update order.
    public var keys: [UpdateKey] { values.keys.sorted() }

    /// The value kept for `key`, if any.
    public subscript(key: UpdateKey) -> Value? { values[key] }

    /// Keeps `value` as the newest of `key`; returns the one it replaces.
    @discardableResult
    public mutating func keep(_ value: Value, for key: UpdateKey) -> Value? {
        values.updateValue(value, forKey: key)
    }

    /// Removes and returns the value of `key` (`nil` when none is kept); a caller that sends a
    /// newer value itself drops the kept one this way.
    @discardableResult
    public mutating func take(_ key: UpdateKey) -> Value? {
        values.removeValue(forKey: key)
    }

    /// Removes and returns the values `isDue` accepts, in update order; the others stay.
    public mutating func take(where isDue: (UpdateKey, Value) -> Bool) -> [(key: UpdateKey, value: Value)] {
        let due = values.filter { isDue($0.key, $0.value) }.sorted { $0.key < $1.key }
        for (key, _) in due { values[key] = nil }
        return due.map { (key: $0.key, value: $0.value) }
    }
}

extension LatestPerUpdate: Sendable where Value: Sendable {}
