import InstallEngine

/// What an apt job will do, fixed before anything runs (rule 22): every package apt's
/// simulation names, in apt's order, with what it will fetch. Its `updates` are the job's.
public struct APTPlan: Sendable, Hashable {
    public var job: PackageJob
    public var environment: APTEnvironment
    /// In the order apt will act (with `Immediate-Configure-All`, the real order).
    public var changes: [PackageChange]
    /// `--print-uris`, line N for `dlstatus` item N.
    public var downloads: [APTDownload]
    /// The bytes of the kept .debs an undo puts back (0 for any other plan): read from this
    /// machine's disk, and missing from `downloads` or sized there as apt sees a local file.
    public var keptSize: Int64

    public init(job: PackageJob, environment: APTEnvironment, changes: [PackageChange], downloads: [APTDownload], keptSize: Int64 = 0) {
        self.job = job
        self.environment = environment
        self.changes = changes
        self.downloads = downloads
        self.keptSize = keptSize
    }

    /// Nothing to install, upgrade or remove.
    public var isEmpty: Bool { changes.isEmpty }

    /// The bytes apt will fetch.
    public var downloadSize: Int64 { downloads.reduce(0) { $0 + $1.size } }

    /// The job's updates: one per package, id = the package, titled with its versions, sized
    /// from its download. A package may ask for a reboot (Debian's `reboot-required`).
    public var updates: [Update] {
        let sizes = Dictionary(downloads.map { ($0.package, $0.size) }, uniquingKeysWith: +)
        return changes.map { change in
            Update(id: change.package, title: change.title, rebootBehavior: .may, sizeInBytes: sizes[change.package],
                   description: change.action.rawValue, package: change)
        }
    }

    /// Whether the plan undoes a job run (`apt undo`): its version changes put back the older
    /// versions kept for it (downgrades), read from those files, not fetched.
    public var isUndo: Bool {
        if case .undo = job.request { return true }
        return false
    }

    /// How the plan reads before it runs: `3 to install, 1 to upgrade, 1 to remove · 42 kB to download`
    /// (an undo's: `8 to downgrade · 10.3 MB from the kept versions`, the kept files' own
    /// sizes, then what it fetches from the archive, if anything).
    public var summary: String {
        let counts: [(String, Int)] = [
            ("to install", changes.count(where: { $0.action == .install })),
            ("to upgrade", changes.count(where: { $0.action == .upgrade && !$0.isDowngrade })),
            ("to downgrade", changes.count(where: \.isDowngrade)),
            ("to reinstall", changes.count(where: { $0.action == .reinstall })),
            ("to remove", changes.count(where: { $0.isRemoval })),
        ]
        var text = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        if text.isEmpty { text = "nothing to do" }
        if keptSize > 0 { text += " · \(ByteCountText.text(keptSize)) from the kept versions" }
        let fetched = isUndo ? downloads.filter { !$0.uri.hasPrefix("file:") }.reduce(0) { $0 + $1.size } : downloadSize
        if fetched > 0 { text += " · \(ByteCountText.text(fetched)) to download" }
        return text
    }
}
