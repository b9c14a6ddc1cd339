/// A file of an installed package that `dpkg --verify` finds not as dpkg recorded it: its
/// content or metadata differ, or it is missing (`DpkgVerification`).
public struct DpkgVerifiedFile: Hashable, Sendable {
    public var path: String
    /// Gone from the disk, rather than different.
    public var missing: Bool

    public init(path: String, missing: Bool = false) {
        self.path = path
        self.missing = missing
    }
}
