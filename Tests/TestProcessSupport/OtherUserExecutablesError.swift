/// Why `OtherUserExecutables` could not give another user executables to run: said at once, so
/// that a test fails with the reason rather than waiting out its timeouts.
public struct OtherUserExecutablesError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
