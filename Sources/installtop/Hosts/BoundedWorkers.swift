import InstallEngine

/// Runs a blocking piece of work per item (each host's ssh link blocks while it waits for the
/// host) on the process's `BlockingPool`, at most `width` at once: not a thread per item, nor
/// Swift's cooperative pool, which blocking work would starve. The pool's limit (16) bounds
/// `width` too.
enum BoundedWorkers {
    /// `work(item)` for every item, at most `width` at once; the results in the items' order.
    /// Called from a command's own thread, never from work on the pool.
    static func map<Item: Sendable, Output: Sendable>(_ items: [Item], width: Int, _ work: @escaping @Sendable (Item) -> Output) -> [Output] {
        BlockingPool.shared.map(items, width: width, work)
    }
}
