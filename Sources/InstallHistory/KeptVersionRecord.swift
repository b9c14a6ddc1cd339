#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One package version kept for undo, or the reason it could not be (`keptVersion` table).
public struct KeptVersionRecord: Sendable, Hashable {
    /// The row id; `nil` until recorded.
    public var id: Int64?
    /// The job run that replaced the version.
    public var jobRun: Int64
    public var package: String
    /// The version replaced (the one kept).
    public var version: String
    public var architecture: String?
    /// The kept .deb's absolute path; `nil` when nothing was kept.
    public var file: String?
    public var sizeBytes: Int64?
    /// `cache` (from apt's archive cache) or `rebuilt`; `nil` when nothing was kept.
    public var source: String?
    /// Why nothing was kept; `nil` when it was.
    public var failure: String?
    /// When pruning deleted the file (`UndoPruning`); `nil` while it is kept.
    public var prunedAt: Date?

    public init(id: Int64? = nil, jobRun: Int64, package: String, version: String, architecture: String? = nil,
                file: String? = nil, sizeBytes: Int64? = nil, source: String? = nil, failure: String? = nil, prunedAt: Date? = nil) {
        self.id = id
        self.jobRun = jobRun
        self.package = package
        self.version = version
        self.architecture = architecture
        self.file = file
        self.sizeBytes = sizeBytes
        self.source = source
        self.failure = failure
        self.prunedAt = prunedAt
    }
}
