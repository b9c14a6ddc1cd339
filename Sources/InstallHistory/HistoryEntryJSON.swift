#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// One history entry as `installtop history --json` prints it: one object per line, stable
/// camelCase names, keys sorted, every field present (`null` when unknown, `NullWhenNil`).
///
/// `operation` and `result` are names ("install", "succeeded") as in the JSON events;
/// `resultCode` is WUA's number; `hResult` is `0x%08X`; dates are RFC 3339 in UTC with
/// milliseconds. `running` is true for an update still running (or whose writer's death
/// has not been noticed yet). `packageAction` ("install", "upgrade", "reinstall", "remove",
/// "purge"), `oldVersion` and `newVersion` say what a package job did to the package; they are
/// `null` for every other update, like any unknown value, so every line keeps the same keys.
public struct HistoryEntryJSON: Encodable, Sendable, Hashable {
    /// The row id.
    @NullWhenNil public var id: Int64?
    /// "install" or "uninstall".
    public var operation: String
    /// WUA's `OperationResultCode` number.
    public var resultCode: Int
    /// The result's name ("succeeded", "failed", …).
    public var result: String
    /// `0x%08X`.
    public var hResult: String
    /// The raw exit status, or 128 + signal number.
    public var unmappedResultCode: Int32
    /// Why it failed, or `null`.
    @NullWhenNil public var reason: String?
    /// RFC 3339 UTC; `null` for an update that never started.
    @NullWhenNil public var startedAt: String?
    /// RFC 3339 UTC; `null` while running.
    @NullWhenNil public var endedAt: String?
    /// The update's id.
    public var updateId: String
    /// The update's revision.
    public var revision: Int
    /// The update's title, unsanitized (JSON escapes it).
    public var title: String
    /// What a package update did to its package, or `null`.
    @NullWhenNil public var packageAction: String?
    /// The package's version before, or `null`.
    @NullWhenNil public var oldVersion: String?
    /// The package's version after, or `null`.
    @NullWhenNil public var newVersion: String?
    /// The job's name.
    public var job: String
    /// Who ran the job ("installtop" unless set).
    public var clientApplicationId: String
    /// Milliseconds; `null` while running, when it never started, or when interrupted.
    @NullWhenNil public var durationMs: Int64?
    /// The last output lines, joined with "\n".
    public var outputTail: String
    /// Whether the update is still running.
    public var running: Bool

    /// The JSON form of `entry`.
    public init(_ entry: HistoryEntry) {
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        id = entry.id
        operation = entry.operation.name
        resultCode = entry.resultCode.rawValue
        result = entry.resultCode.name
        hResult = entry.hResult.description
        unmappedResultCode = entry.unmappedResultCode
        reason = entry.reason
        startedAt = entry.startedAt.map { $0.formatted(format) }
        endedAt = entry.endedAt.map { $0.formatted(format) }
        updateId = entry.updateID
        revision = entry.revision
        title = entry.title
        packageAction = entry.packageAction?.rawValue
        oldVersion = entry.oldVersion
        newVersion = entry.newVersion
        job = entry.jobName
        clientApplicationId = entry.clientApplicationID
        durationMs = entry.durationMs
        outputTail = entry.outputTail
        running = entry.isRunning
    }

    /// The entry as one line of JSON, without the newline.
    public static func line(for entry: HistoryEntry) throws -> String {
        try SortedKeysJSON.text(of: HistoryEntryJSON(entry))
    }
}
