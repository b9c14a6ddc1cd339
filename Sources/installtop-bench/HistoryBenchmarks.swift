import Foundation
import Glibc
import InstallEngine
import InstallHistory

/// Benchmarks of the SQLite history: what recording adds to a run, and a query on a large
/// history.
enum HistoryBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "history", run: recordAndQuery),
    ]

    /// Records 2,000 updates through the recorder (start and end rows, as a run does), then
    /// grows the table to 100,000+ rows and times `entries(limit: 50)`, newest first.
    /// Goals: recording ≤ 1 ms per update; the query ≤ 50 ms.
    static func recordAndQuery() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let store = try HistoryStore(path: folder + "/history.sqlite3")
            let recorder = HistoryRecorder(store: store)
            let updates = 2_000
            let descriptor = JobDescriptor(
                id: 1, name: "bench", operation: .install,
                updates: (0..<updates).map { Update(id: "u\($0 % 500)", installCommand: .argv(["true"])) },
                stopOnFailure: false)
            try recorder.record(EngineEvent(kind: .jobQueued(descriptor)))
            let clock = ContinuousClock()
            let cpuBefore = cpuSeconds()
            let recording = try clock.measure {
                for index in 0..<updates {
                    try recorder.record(EngineEvent(kind: .updateStarted(job: 1, index: index, updateID: descriptor.updates[index].id)))
                    try recorder.record(EngineEvent(kind: .output(job: 1, index: index, stream: .stdout, line: "Setting up \(index)")))
                    let result = UpdateInstallationResult(resultCode: .succeeded, startedAt: Date(), endedAt: Date())
                    try recorder.record(EngineEvent(kind: .updateCompleted(job: 1, index: index, updateID: descriptor.updates[index].id, result: result)))
                }
                try recorder.flush()
            }
            let cpu = (cpuSeconds() - cpuBefore) / Double(updates) * 1000
            print("  recording: \(format(recording / updates)) per update, start and end, "
                + "\(String(format: "%.3f", cpu)) ms of it CPU (goal ≤ 1 ms)")

            try multiplyRows(in: folder + "/history.sqlite3", times: 6)
            let total = try store.count()
            var best = Duration.seconds(1000)
            for _ in 0..<20 {
                let elapsed = try clock.measure { _ = try store.entries(limit: 50) }
                best = min(best, elapsed)
            }
            print("  entries(limit: 50) on \(total) rows: \(format(best)) (best of 20; goal ≤ 50 ms)")
        } catch {
            print("  failed: \(error)")
        }
    }

    /// Doubles the table `times` times with sqlite3, so the query runs on a realistic size.
    private static func multiplyRows(in path: String, times: Int) throws {
        let columns = "operation, resultCode, hResult, unmappedResultCode, reason, startedAt, endedAt, updateID, revision, title, jobName, clientApplicationID, durationMs, outputTail"
        let sql = Array(repeating: "INSERT INTO historyEntry (\(columns)) SELECT \(columns) FROM historyEntry;", count: times).joined()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
    }

    private static func format(_ duration: Duration) -> String {
        String(format: "%.3f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
    }
}
