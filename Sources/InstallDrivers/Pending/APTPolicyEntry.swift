/// One package as `apt-cache policy P` shows it: the installed version, apt's candidate and
/// every version the lists and dpkg know, newest first.
public struct APTPolicyEntry: Sendable, Hashable {
    /// One line of the version table: `     2.0 500 (phased 40%)`, ` *** 1.0 100`.
    public struct Version: Sendable, Hashable {
        public var version: String
        /// The `Phased-Update-Percentage` apt shows beside the version, when it shows one.
        public var phasedPercentage: Int?

        public init(version: String, phasedPercentage: Int? = nil) {
            self.version = version
            self.phasedPercentage = phasedPercentage
        }
    }

    public var name: String
    /// `nil` for `(none)`.
    public var installed: String?
    /// `nil` for `(none)`.
    public var candidate: String?
    /// apt sorts the table by version, newest first.
    public var versions: [Version]

    /// The newest version known (the table's first), `nil` for an empty table.
    public var newest: String? { versions.first?.version }

    /// Installed, and apt's candidate is another version: an upgrade would take it unless
    /// something holds it back.
    public var isUpgradable: Bool {
        guard let installed, let candidate else { return false }
        return candidate != installed
    }

    /// Installed at apt's candidate while the lists offer a newer version: a preferences file
    /// keeps it where it is.
    public var isPinned: Bool {
        guard let installed, candidate == installed, let newest else { return false }
        return newest != installed
    }

    /// The candidate's phased percentage, when apt shows one.
    public var candidatePhasedPercentage: Int? {
        versions.first { $0.version == candidate }?.phasedPercentage
    }
}
