import Foundation
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("Two installtop processes write one history at once")
final class ConcurrentWritersTests {
    private let folder = TemporaryFolder()

    @Test func severalProcessesCreatingOneNewFileAtOnceAllOpenIt() async throws {
        // Unserialized, some of these fail with "database is locked" while switching the new
        // file to WAL, or lose the race to create the table.
        for round in 0..<20 {
            let path = folder.file("round-\(round).sqlite3")
            let opened = await withTaskGroup(of: Result<Int, HistoryError>.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        do throws(HistoryError) { return .success(try HistoryStore(path: path).count()) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: [Result<Int, HistoryError>]()) { $0.append($1) }
            }
            #expect(opened.allSatisfy { (try? $0.get()) == 0 }, "\(opened)")
        }
    }

    @Test func twoPoolsOnOneFileLoseNoRowAndNeverReportLocked() async throws {
        let path = folder.file("shared/history.sqlite3")
        // Both open a brand-new file at the same moment, so both race to create the schema too.
        async let first = HistoryStore(path: path)
        async let second = HistoryStore(path: path)
        let stores = try await [first, second]

        let tasks = 16
        let jobsPerTask = 10
        let updatesPerJob = 3
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                let recorder = HistoryRecorder(store: stores[task % 2])
                group.addTask {
                    for job in 0..<jobsPerTask {
                        let jobID = task * 1000 + job
                        let updates = (0..<updatesPerJob).map { Update(id: "t\(task)-j\(job)-u\($0)") }
                        try recorder.record(EngineEvents.queued(EngineEvents.job(jobID, name: "task \(task)", updates: updates)))
                        for (index, update) in updates.enumerated() {
                            try recorder.record(EngineEvents.updateStarted(jobID, index, update.id, at: Double(index)))
                            try recorder.record(EngineEvents.output(jobID, index, "working", at: Double(index)))
                            try recorder.record(EngineEvents.updateCompleted(
                                jobID, index, update.id, UpdateInstallationResult(resultCode: .succeeded), at: Double(index) + 0.5))
                        }
                        try recorder.record(EngineEvents.completed(jobID, [], at: 10))
                    }
                }
            }
            try await group.waitForAll()
        }

        let expected = tasks * jobsPerTask * updatesPerJob
        for store in stores {
            #expect(try store.count() == expected)
            let rows = try store.entries(limit: expected + 10)
            #expect(Set(rows.compactMap(\.id)).count == expected)
            #expect(Set(rows.map(\.updateID)).count == expected)
            #expect(rows.allSatisfy { !$0.isRunning && $0.resultCode == .succeeded && $0.outputTail == "working" })
        }
        #expect(try stores[0].count(jobName: "task 3") == jobsPerTask * updatesPerJob)
    }
}
