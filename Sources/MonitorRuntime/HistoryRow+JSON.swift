import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Monitor

extension HistoryRow {
    /// A row from one entry of the engine's `history` reply (the `installtop history --json`
    /// form); `nil` when the entry lacks its result code or update id.
    init?(json entry: JSONValue) {
        guard let code = entry["resultCode"]?.intValue.flatMap(OperationResultCode.init(rawValue:)),
            let updateID = entry["updateId"]?.stringValue
        else { return nil }
        let date = (entry["startedAt"]?.stringValue ?? entry["endedAt"]?.stringValue).flatMap(RFC3339.date(from:))
        self.init(
            date: date, resultCode: code, updateID: updateID, title: entry["title"]?.stringValue ?? updateID,
            jobName: entry["job"]?.stringValue ?? "", duration: entry["durationMs"]?.intValue.map { .milliseconds($0) },
            reason: entry["reason"]?.stringValue)
    }
}
