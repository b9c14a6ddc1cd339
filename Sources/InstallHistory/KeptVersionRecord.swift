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
    /// The package's conffiles with the md5 dpkg had recorded as each one's original when the
    /// version was kept (its status `Conffiles:`), path to hash: what an undo from a rebuilt
    /// .deb gives back to dpkg afterwards so an edited conffile stays known as edited (rule 36).
    /// Empty when it had none or the row is older than the column.
    public var conffiles: [String: String]
    /// Whether apt had the package marked automatically installed when it was kept; `nil` when
    /// unknown (apt-mark could not say, or the row is older than the column).
    public var automatic: Bool?

    public init(id: Int64? = nil, jobRun: Int64, package: String, version: String, architecture: String? = nil,
                file: String? = nil, sizeBytes: Int64? = nil, source: String? = nil, failure: String? = nil, prunedAt: Date? = nil,
                conffiles: [String: String] = [:], automatic: Bool? = nil) {
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
        self.conffiles = conffiles
        self.automatic = automatic
    }

    /// `conffiles` as the column holds it: one `PATH MD5` line each, sorted by path; `nil`
    /// when there are none.
    public var conffilesText: String? {
        conffiles.isEmpty ? nil : conffiles.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
    }

    /// The column's text read back (`conffilesText`); empty for `nil`.
    public static func conffiles(fromText text: String?) -> [String: String] {
        var hashes: [String: String] = [:]
        for line in (text ?? "").split(separator: "\n") {
            guard let space = line.lastIndex(of: " ") else { continue }
            hashes[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return hashes
    }
}
