import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import InstallHistory
import Monitor

extension JobRunRow {
    /// A row from one run of the engine's `runs` reply (the `installtop history --jobs --json`
    /// form); `nil` when the run lacks its id. An unknown result name reads as still running.
    init?(json run: JSONValue) {
        guard let id = run["run"]?.intValue else { return nil }
        let date = (run["startedAt"]?.stringValue ?? run["endedAt"]?.stringValue).flatMap(RFC3339.date(from:))
        let resultName = run["result"]?.stringValue
        let packages: [String] = (run["packages"]?.arrayValue ?? []).compactMap { package in
            guard let name = package["name"]?.stringValue,
                let action = package["action"]?.stringValue.flatMap(PackageChange.Action.init(rawValue:))
            else { return nil }
            // An engine before 2026-11-28 listed only the packages a run changed, without a
            // result: each one's update succeeded.
            let result = package["result"]?.stringValue.flatMap { name in OperationResultCode.allCases.first { $0.name == name } }
            return JobRunTable.line(of: JobRunPackage(name: name, action: action, oldVersion: package["oldVersion"]?.stringValue,
                                                      newVersion: package["newVersion"]?.stringValue, resultCode: result ?? .succeeded))
        }
        let undoable = run["undoable"]?.boolValue ?? false
        self.init(
            id: id, date: date, kind: run["kind"]?.stringValue ?? "", name: run["name"]?.stringValue ?? "",
            resultCode: OperationResultCode.allCases.first { $0.name == resultName }, packages: packages,
            notUndoableBecause: undoable ? nil : run["notUndoableBecause"]?.stringValue ?? "the engine did not say why")
    }
}
