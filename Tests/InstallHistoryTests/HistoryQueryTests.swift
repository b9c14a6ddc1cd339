import Foundation
import SQLiteStore
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("Rule 19: queries newest first, zero-based paging, filters, ETAs")
final class HistoryQueryTests {
    private let folder = TemporaryFolder()
    private let store: HistoryStore

    init() throws {
        store = try HistoryStore(path: folder.file("history.sqlite3"))
    }

    @discardableResult
    private func add(
        _ updateID: String, job: String = "job", startedAt: Double?, endedAt: Double? = nil,
        result: OperationResultCode = .succeeded, durationMs: Int64? = nil
    ) throws -> HistoryEntry {
        try store.insert(HistoryEntry(
            operation: .install, resultCode: result, startedAt: startedAt.map(EngineEvents.time),
            endedAt: (endedAt ?? startedAt.map { $0 + 1 }).map(EngineEvents.time), updateID: updateID,
            title: updateID, jobName: job, durationMs: durationMs))
    }

    @Test func pagesAreNewestFirstWithZeroBasedOffsetsAndAShortLastPage() throws {
        // Inserted out of order; two share a start date so the id decides between them.
        for minute in [3, 0, 24, 10, 7] + Array(11...23) + [1, 2, 4, 5, 6, 8, 9] {
            try add("u\(minute)", startedAt: Double(minute) * 60)
        }
        let twin = try add("u24-twin", startedAt: 24 * 60)
        // Never started: dated by when it was settled.
        try add("never", startedAt: nil, endedAt: 9.5 * 60, result: .aborted)
        #expect(try store.count() == 27)

        let first = try store.entries(limit: 10, offset: 0)
        #expect(first.map(\.updateID) == ["u24-twin", "u24", "u23", "u22", "u21", "u20", "u19", "u18", "u17", "u16"])
        #expect(first.first?.id == twin.id)
        let second = try store.entries(limit: 10, offset: 10)
        #expect(second.map(\.updateID) == ["u15", "u14", "u13", "u12", "u11", "u10", "never", "u9", "u8", "u7"])
        let last = try store.entries(limit: 10, offset: 20)
        #expect(last.map(\.updateID) == ["u6", "u5", "u4", "u3", "u2", "u1", "u0"])
        #expect(try store.entries(limit: 10, offset: 30).isEmpty)
        #expect(try store.entries(limit: 0).isEmpty)
        #expect(try store.entries(limit: -5, offset: -5).isEmpty)
    }

    @Test func filtersByUpdateIDAndJobName() throws {
        try add("openssl", job: "Security", startedAt: 0)
        try add("kernel", job: "Security", startedAt: 1)
        try add("openssl", job: "Weekly", startedAt: 2)
        try add("openssl", job: "Security", startedAt: 3)

        #expect(try store.entries(updateID: "openssl").map(\.jobName) == ["Security", "Weekly", "Security"])
        #expect(try store.entries(jobName: "Security").map(\.updateID) == ["openssl", "kernel", "openssl"])
        #expect(try store.entries(updateID: "openssl", jobName: "Security").map(\.startedAt) == [EngineEvents.time(3), EngineEvents.time(0)])
        #expect(try store.entries(updateID: "missing").isEmpty)
        #expect(try store.count(updateID: "openssl") == 3)
        #expect(try store.count(jobName: "Weekly") == 1)
        #expect(try store.count(updateID: "kernel", jobName: "Weekly") == 0)
    }

    @Test func theStoresQueriesUseIndexesNotATableScanOrASort() throws {
        let plans = try store.pool.read { db in
            let pages = try [(nil, nil), ("x", nil), (nil, "x")].map { (updateID: String?, jobName: String?) in
                let page = HistoryStore.page(limit: 50, offset: 0, updateID: updateID, jobName: jobName)
                return try Self.plan(db, page.sql, page.arguments)
            }
            return pages + [
                try Self.plan(db, "SELECT durationMs FROM \(HistoryStore.succeededRuns) ORDER BY durationMs", ["x"]),
                try Self.plan(db, "SELECT * FROM historyEntry WHERE isRunning", []),
            ]
        }
        let indexes = ["historyEntry_byDate", "historyEntry_byUpdate", "historyEntry_byJob",
                       "historyEntry_succeededDurations", "historyEntry_running"]
        for (plan, index) in zip(plans, indexes) {
            #expect(plan.contains(index), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    private static func plan(_ db: SQLiteConnection, _ sql: String, _ arguments: SQLiteArguments) throws -> String {
        try db.fetchAll(sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
            .map { $0["detail"] as String }.joined(separator: "; ")
    }

    @Test func medianDurationIsOverSucceededRunsOfThatUpdate() throws {
        #expect(try store.medianDuration(updateID: "openssl") == nil)
        try add("openssl", startedAt: 0, durationMs: 4000)
        #expect(try store.medianDuration(updateID: "openssl") == .seconds(4))
        try add("openssl", startedAt: 1, durationMs: 1000)
        try add("openssl", startedAt: 2, durationMs: 9000)
        try add("openssl", startedAt: 3, result: .failed, durationMs: 100)
        try add("openssl", startedAt: 4, result: .succeededWithErrors, durationMs: 100)
        try add("kernel", startedAt: 5, durationMs: 100)
        #expect(try store.medianDuration(updateID: "openssl") == .seconds(4))
        try add("openssl", startedAt: 6, durationMs: 5000)
        #expect(try store.medianDuration(updateID: "openssl") == .milliseconds(4500))
        #expect(try store.medianDuration(updateID: "kernel") == .milliseconds(100))
    }
}
