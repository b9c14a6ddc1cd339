import InstallEngine

/// Where one package is in an apt transaction, read from the words apt's `pmstatus` lines start
/// with (Documentation/PACKAGE-FACTS.md), and the share of the package's bar each phase stands for. Downloads take
/// the first fifth; the rest follows dpkg's steps, as PackageKit's apt backend maps them.
public enum APTPackagePhase: String, Sendable, Hashable {
    case downloading, downloaded
    case preparing, unpacking, installing, preparingToConfigure, configuring, installed
    case preparingForRemoval, removing, removed

    /// The package's percent once it has reached this phase.
    public var percent: Double {
        switch self {
        case .downloading: return 10
        case .downloaded: return 20
        case .preparing, .preparingForRemoval: return 30
        case .unpacking, .removing: return 50
        case .installing: return 55
        case .preparingToConfigure: return 65
        case .configuring: return 80
        case .installed, .removed: return 100
        }
    }

    /// The status text shown on the package's bar.
    public var word: String {
        switch self {
        case .downloading: return "downloading"
        case .downloaded: return "downloaded"
        case .preparing: return "preparing"
        case .unpacking: return "unpacking"
        case .installing: return "installing"
        case .preparingToConfigure: return "preparing to configure"
        case .configuring: return "configuring"
        case .installed: return "installed"
        case .preparingForRemoval: return "preparing for removal"
        case .removing: return "removing"
        case .removed: return "removed"
        }
    }

    /// The word a package's bar ends with once `action` is done: `installed`, `removed`, or
    /// `purged` (apt says `Completely removed` for a purge, and nothing at the end of a plain
    /// removal).
    public static func doneWord(for action: PackageChange.Action) -> String {
        switch action {
        case .install, .upgrade, .reinstall: return APTPackagePhase.installed.word
        case .remove: return APTPackagePhase.removed.word
        case .purge: return "purged"
        }
    }

    /// Whether dpkg has begun on the package (downloads change nothing on the system).
    public var touchesThePackage: Bool { self != .downloading && self != .downloaded }

    /// Whether the package is done: its `Installed` / `Removed` line is its success (a safe
    /// point, with `Immediate-Configure-All`).
    public var isFinal: Bool { self == .installed || self == .removed }

    /// The phase a `pmstatus` text announces (`Unpacking lab-base (amd64)`), or `nil` for text
    /// apt does not use for a phase. Longer phrases are tried before their prefixes.
    public init?(statusText text: String) {
        guard let match = Self.phrases.first(where: { text.hasPrefix($0.0) }) else { return nil }
        self = match.1
    }

    /// apt's phrases, longer ones before their prefixes.
    private static let phrases: [(String, APTPackagePhase)] = [
        ("Preparing to configure", .preparingToConfigure), ("Preparing for removal", .preparingForRemoval),
        ("Completely removed", .removed), ("Completely removing", .removing),
        ("Preparing", .preparing), ("Unpacking", .unpacking), ("Installing", .installing),
        ("Configuring", .configuring), ("Installed", .installed), ("Removing", .removing), ("Removed", .removed),
    ]
}
