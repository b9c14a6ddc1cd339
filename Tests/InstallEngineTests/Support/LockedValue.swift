import Synchronization

/// A value behind a lock that closures and tasks can share (a `Mutex` itself cannot be captured).
final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func set(_ value: Value) { mutex.withLock { $0 = value } }

    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}
