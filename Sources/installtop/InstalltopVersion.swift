/// installtop's version, printed by `installtop --version`.
enum InstalltopVersion {
    static let current = "0.2.0"
}
