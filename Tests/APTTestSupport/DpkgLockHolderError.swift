/// The lock holder ended before it said it held the lock.
public struct DpkgLockHolderError: Error, CustomStringConvertible {
    public let path: String
    /// What it printed instead of `locked`.
    public let said: String

    public var description: String { "python3 could not lock \(path): \(said.isEmpty ? "it exited" : said)" }
}
