/// Why dpkg's record of a package's conffiles could not be given back (`DpkgConffileRecord`):
/// said as a warning after the undo, which itself succeeded.
public struct DpkgConffileRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
