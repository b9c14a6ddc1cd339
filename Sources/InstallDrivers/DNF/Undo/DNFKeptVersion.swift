/// What became of one installed version a dnf transaction took away (the old version of an
/// upgrade, a removed or obsoleted package), for undo: its rpm kept, or why not.
public struct DNFKeptVersion: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Its rpm is `file` (`size` bytes), found in dnf's cache or a local repository
        /// (`cache`) or fetched from a repository that still offers it (`repository`).
        case kept(file: String, size: Int64, source: String)
        case notKept(reason: String)
    }

    public var name: String
    public var arch: String
    /// The version taken away, as dnf says it (`[epoch:]version-release`).
    public var version: String
    public var outcome: Outcome
    /// The `%config` files a rebuild took as edited (their paths in the root): once the rpm is
    /// put back, rpm takes those edits for the package's own content.
    public var editedConfig: [String]

    public init(name: String, arch: String, version: String, outcome: Outcome, editedConfig: [String] = []) {
        self.name = name
        self.arch = arch
        self.version = version
        self.outcome = outcome
        self.editedConfig = editedConfig
    }

    /// The kept file, when there is one.
    public var file: String? {
        if case .kept(let file, _, _) = outcome { return file }
        return nil
    }
}
