import Foundation
import InstallEngine
import InstallHistory
import Testing

@Suite("installtop history --json: stable field names")
struct HistoryEntryJSONTests {
    @Test func everyFieldIsPresentWithItsContractName() throws {
        let entry = HistoryEntry(
            id: 42, operation: .uninstall, resultCode: .failed, hResult: .installerFailure, unmappedResultCode: 137,
            reason: "timed out after 30s", startedAt: EngineEvents.time(0.5), endedAt: EngineEvents.time(31),
            updateID: "openssl", revision: 3, title: "OpenSSL \"3\"/fix", jobName: "Security",
            durationMs: 30_500, outputTail: "a\nb", isRunning: false)
        let line = try HistoryEntryJSON.line(for: entry)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == [
            "id", "operation", "resultCode", "result", "hResult", "unmappedResultCode", "reason", "startedAt",
            "endedAt", "updateId", "revision", "title", "job", "clientApplicationId", "durationMs", "outputTail",
            "running", "packageAction", "oldVersion", "newVersion",
        ])
        #expect(object["operation"] as? String == "uninstall")
        #expect(object["resultCode"] as? Int == 4)
        #expect(object["result"] as? String == "failed")
        #expect(object["hResult"] as? String == "0x8024200B")
        #expect(object["unmappedResultCode"] as? Int == 137)
        #expect(object["reason"] as? String == "timed out after 30s")
        #expect(object["startedAt"] as? String == "2023-11-14T22:13:20.500Z")
        #expect(object["endedAt"] as? String == "2023-11-14T22:13:51.000Z")
        #expect(object["updateId"] as? String == "openssl")
        #expect(object["revision"] as? Int == 3)
        #expect(object["title"] as? String == "OpenSSL \"3\"/fix")
        #expect(object["job"] as? String == "Security")
        #expect(object["clientApplicationId"] as? String == "installtop")
        #expect(object["durationMs"] as? Int == 30_500)
        #expect(object["outputTail"] as? String == "a\nb")
        #expect(object["running"] as? Bool == false)
    }

    @Test func unknownValuesAreNullNotMissing() throws {
        let entry = HistoryEntry(
            operation: .install, resultCode: .aborted, hResult: .callCancelled, startedAt: nil,
            endedAt: EngineEvents.time(0), updateID: "x", title: "x", jobName: "j")
        let line = try HistoryEntryJSON.line(for: entry)
        #expect(line.contains("\"startedAt\":null"))
        #expect(line.contains("\"durationMs\":null"))
        #expect(line.contains("\"reason\":null"))
        #expect(line.contains("\"hResult\":\"0x8024000B\""))
        #expect(line.contains("\"packageAction\":null"))
        #expect(line.contains("\"oldVersion\":null"))
        #expect(line.contains("\"newVersion\":null"))
    }
}
