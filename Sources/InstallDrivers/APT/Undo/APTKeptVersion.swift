/// What keeping one package's replaced version for undo gave (Documentation/UNDO.md): the kept
/// .deb, or why there is none.
public struct APTKeptVersion: Sendable, Hashable {
    /// Where a kept .deb came from.
    public enum Source: String, Sendable, Hashable {
        /// apt's archive cache held exactly the installed version: hard-linked (or copied).
        case archiveCache = "cache"
        /// Rebuilt from the installed files, control data, conffiles and maintainer scripts.
        case rebuilt
    }

    /// What happened.
    public enum Outcome: Sendable, Hashable {
        /// The .deb at `file` (absolute), `size` bytes.
        case kept(file: String, size: Int64, source: Source)
        /// Nothing kept, for this reason (said on the package's update and in the history).
        case notKept(reason: String)
    }

    public var package: String
    /// The version being replaced (what dpkg has installed), as the plan names it.
    public var version: String
    /// The installed package's architecture; `nil` when dpkg could not say.
    public var architecture: String?
    public var outcome: Outcome
    /// The md5 dpkg had recorded as each conffile's original (`Conffiles:`), path to hash: a
    /// rebuilt .deb carries the conffiles as they are now, so after an undo installed it these
    /// are given back to dpkg (`DpkgConffileRecord`, rule 36). Empty when it has none.
    public var conffiles: [String: String]
    /// Whether apt had it marked automatically installed; `nil` when apt-mark could not say.
    public var automatic: Bool?

    public init(package: String, version: String, architecture: String?, outcome: Outcome,
                conffiles: [String: String] = [:], automatic: Bool? = nil) {
        self.package = package
        self.version = version
        self.architecture = architecture
        self.outcome = outcome
        self.conffiles = conffiles
        self.automatic = automatic
    }

    /// The Status-Fd lines the apt transaction adds for a package not kept
    /// (`installtop-undo:PACKAGE:NOTE`), before dpkg's first line, for `APTRunState` to say the
    /// note on that package's update when it starts.
    public static let noteLinePrefix = "installtop-undo:"

    /// The line the apt transaction adds, after those notes, when an armed job lacks a version
    /// its revert needs and apt is answered `stop` before dpkg starts: the run takes it as a
    /// stop, whether or not its job had begun when the keeping failed.
    public static let armedStopLine = "installtop-undo-stop"

    /// The line said on the package's update when nothing was kept; `nil` when it was.
    public var failureNote: String? {
        guard case .notKept(let reason) = outcome else { return nil }
        return "installtop: \(package) \(version) not kept for undo: \(reason); this run cannot be undone"
    }
}
