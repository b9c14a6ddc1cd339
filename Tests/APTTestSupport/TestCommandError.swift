/// A command that a test needed to succeed exited otherwise.
public struct TestCommandError: Error, CustomStringConvertible {
    public let arguments: [String]
    public let result: TestCommand

    public var description: String {
        "\(arguments.joined(separator: " ")) exited \(result.status)\n\(result.stdout)\(result.stderr)"
    }
}
