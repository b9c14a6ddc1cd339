// DispatchSemaphore only: a futex on Linux; no Dispatch thread is ever started here.
import Dispatch
import Synchronization

/// The process's pool for work that blocks its thread: a SQLite read or write, `apt-get -s`,
/// the rpm database, an ssh command to a host. At most `limit` threads (`installtop-block1`…),
/// started as work comes and ended after a few idle seconds; work beyond them waits in one
/// first-in-first-out list. Neither the engine's pool (whose items never block) nor a thread
/// per call, which a thousand calls would make a thousand threads.
///
/// Work on the pool must not wait for other work on the same pool: when every thread waits,
/// nothing is left to run what they wait for. What blocks for as long as something lives (a
/// link's reader, a server's accept loop, a subscriber that may block for minutes) has a
/// thread of its own instead, so it cannot hold a pool thread for good.
public final class BlockingPool: Sendable {
    /// The pool of this process: 16 threads at most (work here mostly waits for a disk, a
    /// database lock or a host, so more than the cores may run at once).
    public static let shared = BlockingPool(name: "installtop-block", limit: 16)

    /// The most threads at once.
    public let limit: Int
    /// Its threads; a `SerialWorkQueue` running `.blockingPool` hands its turns to them.
    let workers: WorkerThreads

    /// - Parameters:
    ///   - name: the threads' name, each numbered (`installtop-block1`; at most 15 characters
    ///     are shown).
    ///   - limit: the most threads at once (at least 1).
    ///   - idleLifetime: how long a thread waits for work before it ends.
    public init(name: String, limit: Int, idleLifetime: Duration = .seconds(5)) {
        self.limit = max(1, limit)
        workers = WorkerThreads(name: name, numbered: true, limit: self.limit, idleLifetime: idleLifetime)
    }

    /// Runs `work` on a thread of the pool, after the work submitted before it has started;
    /// never on the calling thread. Returns at once.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        workers.submit(work)
    }

    /// Calls `work` for every item, at most `width` (and at most `limit`) at once, and waits
    /// for them all; returns the outputs in the items' order. An empty list returns at once.
    /// Not from a thread of this pool (it would wait for the pool from the pool).
    public func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], width: Int, _ work: @escaping @Sendable (Item) -> Output
    ) -> [Output] {
        guard !items.isEmpty else { return [] }
        let next = Atomic<Int>(0)
        let results = Mutex<[Output?]>(Array(repeating: nil, count: items.count))
        let runners = min(max(width, 1), limit, items.count)
        let finished = DispatchSemaphore(value: 0)
        // Each runner takes the next item until none is left: `width` at once however many
        // threads the pool has free.
        for _ in 0..<runners {
            submit {
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < items.count else { break }
                    let output = work(items[index])
                    results.withLock { $0[index] = output }
                }
                finished.signal()
            }
        }
        for _ in 0..<runners { finished.wait() }
        return results.withLock { $0.map { $0! } }
    }
}
