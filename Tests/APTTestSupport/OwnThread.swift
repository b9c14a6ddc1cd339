import Foundation

/// `body`'s value, computed on a thread of its own while the caller awaits: Swift's
/// concurrency pool has few threads, and a test that blocks one of them (a command that runs for
/// minutes under load, a poll that must react at once) stalls every test that awaits meanwhile.
public func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
