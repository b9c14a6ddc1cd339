#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TextBasics

// MARK: - Shells opened on hosts from the board, and their recordings

extension HistoryStore {
    /// The folder of shell recordings beside the database, `shells/RUN.cast` under it
    /// (`NAME.shells/` beside a database named other than `history.sqlite3`, for the reason
    /// `undoFolder` gives).
    public var shellFolder: String { Self.shellFolder(forDatabase: path) }

    /// `shellFolder` of the database at `path`, known without opening it.
    public static func shellFolder(forDatabase path: String) -> String {
        let name = PathText.lastComponent(of: path)
        return PathText.appending(name == defaultFileName ? "shells" : name + ".shells", to: PathText.parent(of: path))
    }

    /// The recording of shell run `run`.
    public func shellRecording(run: Int64) -> String {
        PathText.appending("\(run).cast", to: shellFolder)
    }

    /// Records that a shell on `host` began at `startedAt` (a run of kind `shell`, named
    /// `shell on HOST`) and returns its run id, which names its recording
    /// (`shellRecording(run:)`); the shells folder is made (mode 0700) if missing.
    /// - Throws: `HistoryError` when the run cannot be recorded or the folder made.
    public func reserveShellRun(host: String, startedAt: Date) throws(HistoryError) -> Int64 {
        do {
            try FileManager.default.createDirectory(atPath: shellFolder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unusableDatabase(path: path, reason: "cannot create folder \(shellFolder): \(Self.describe(error))")
        }
        return try reserveJobRun(kind: JobRun.shellKind, name: Self.shellName(host), operation: .install, startedAt: startedAt)
    }

    /// Records the end of shell run `run` on `host`: one row (update `shell`, job `host`) with
    /// its duration and ssh's exit status, succeeded for 0 and failed otherwise, with `reason`
    /// (what ssh last said, when it failed) or the exit status as its reason.
    public func finishShellRun(_ run: Int64, host: String, startedAt: Date, endedAt: Date, exitStatus: Int32,
                               reason: String?) throws(HistoryError) {
        let result: OperationResultCode = exitStatus == 0 ? .succeeded : .failed
        let said = exitStatus == 0 ? nil : reason ?? (exitStatus > 128 ? "ended by signal \(exitStatus - 128)" : "exit status \(exitStatus)")
        let entry = HistoryEntry(
            operation: .install, resultCode: result, hResult: exitStatus == 0 ? .ok : .installerFailure,
            unmappedResultCode: exitStatus, reason: said, startedAt: startedAt, endedAt: endedAt,
            updateID: JobRun.shellKind, title: Self.shellName(host), jobName: host,
            durationMs: Int64((endedAt.timeIntervalSince(startedAt) * 1000).rounded()), jobRun: run)
        try recordSettledRows([entry])
        try finishJobRun(run, name: Self.shellName(host), resultCode: result, endedAt: endedAt)
    }

    /// The shells opened on `host` among the newest `limit` runs, newest first.
    public func shellRuns(onHost host: String, limit: Int) throws(HistoryError) -> [JobRun] {
        try jobRuns(limit: limit).filter { $0.kind == JobRun.shellKind && $0.name == Self.shellName(host) }
    }

    private static func shellName(_ host: String) -> String { "shell on \(host)" }
}
