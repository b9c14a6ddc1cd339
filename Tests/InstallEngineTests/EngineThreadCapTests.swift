import Foundation
@testable import InstallEngine
import Testing

@Suite("Threads: a thousand concurrent updates run on the engine's few threads")
struct EngineThreadCapTests {
    /// The engine's threads shared by the whole process: its pool, its reactor (children and
    /// timers) and the pool for blocking work. Each has a fixed maximum, whatever the work.
    private static let sharedEngineThreadPrefixes = ["installtop-eng", "installtop-poll", "installtop-block"]

    @Test func aThousandConcurrentSleepsAddFewerThanTwoHundredThreads() async throws {
        let updates = 1_000
        let queue = JobQueue(backend: ProcessBackend(), concurrency: updates,
                             configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker"))
        // Its children are killed also when an expectation below ends the test early.
        defer { queue.abortAll(force: true) }
        let before = ThreadNames.all
        let engineBefore = engineThreads(in: before)
        for index in 0..<updates {
            try queue.submit(name: "sleep \(index)", updates: [Update(id: "sleep", installCommand: .argv(["sleep", "1"]))])
        }
        let idle = LockedValue(false)
        let waiting = Task {
            await queue.waitUntilIdle()
            idle.set(true)
        }
        var peakEngine = engineBefore
        var peakTotal = before.count
        var peakNames: [String] = []
        let deadline = ContinuousClock.now + .seconds(300)
        while !idle.value, ContinuousClock.now < deadline {
            let names = ThreadNames.all
            if names.count > peakTotal {
                peakTotal = names.count
                peakNames = names
            }
            peakEngine = max(peakEngine, engineThreads(in: names))
            try await Task.sleep(for: .milliseconds(5))
        }
        await waiting.value
        // The figure, for the record (installtop-bench concurrent-sleep measures it alone).
        print("threads: \(before.count) before, \(peakTotal) at the peak (+\(peakTotal - before.count)); engine-named \(engineBefore) → \(peakEngine)")
        let results = queue.snapshot().jobs.map { $0.result?.resultCode }
        #expect(results.count == updates)
        #expect(results.allSatisfy { $0 == .succeeded })
        // Tests running beside this one start threads of their own, and a thread started from
        // an engine thread carries its maker's name until it names itself, so the engine's
        // threads cannot be told apart by name reliably here (installtop-bench counts them
        // alone); a thread per update (or Dispatch's overcommitting queues: 260 for this load)
        // would add hundreds. The tests beside it added up to 117 under two CPU hogs (Dispatch
        // threads of other suites, other queues' callback threads, threads of the reactor and
        // churn tests) while the engine-named ones stayed at 3 or 4, so the bound is 200.
        #expect(peakTotal - before.count < 200,
                "\(before.count) threads before, \(peakTotal) at the peak (\(engineBefore) → \(peakEngine) engine-named): \(peakNames)")
    }

    private func engineThreads(in names: [String]) -> Int {
        names.filter { name in Self.sharedEngineThreadPrefixes.contains { name.hasPrefix($0) } }.count
    }
}
