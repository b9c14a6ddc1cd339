import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import InstallEngine

/// Runs a blocking piece of work per item on at most `width` threads of its own (each host's
/// ssh link blocks while it waits for the host), not one thread per item, nor Swift's
/// cooperative pool, which blocking work would starve.
enum BoundedWorkers {
    /// `work(item)` for every item, at most `width` at once; the results in the items' order.
    static func map<Item: Sendable, Output: Sendable>(_ items: [Item], width: Int, _ work: @escaping @Sendable (Item) -> Output) -> [Output] {
        guard !items.isEmpty else { return [] }
        let next = Atomic<Int>(0)
        let results = Mutex<[Output?]>(Array(repeating: nil, count: items.count))
        let done = DispatchGroup()
        for _ in 0..<min(max(width, 1), items.count) {
            done.enter()
            EngineThread.detach(named: "installtop-work") {
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < items.count else { break }
                    let output = work(items[index])
                    results.withLock { $0[index] = output }
                }
                done.leave()
            }
        }
        done.wait()
        return results.withLock { $0.map { $0! } }
    }
}
