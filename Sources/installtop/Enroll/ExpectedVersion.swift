/// The installtop every host should have: this one's version, as it says it and as its
/// package is numbered.
struct ExpectedVersion: Sendable, Hashable {
    /// What `installtop --version` prints.
    var installtop: String
    /// The Debian version `Scripts/build-deb` gives its package (a native package: a hyphen
    /// becomes `~`, anything else Debian does not allow `+`).
    var debian: String

    init(installtop: String) {
        self.installtop = installtop
        debian = String(installtop.map { $0 == "-" ? "~" : ($0.isASCII && ($0.isLetter || $0.isNumber || ".+~".contains($0)) ? $0 : "+") })
    }

    /// This installtop's.
    static let current = ExpectedVersion(installtop: InstalltopVersion.current)
}
