import Foundation

/// A helper program run to completion (dpkg-deb, apt-get, dpkg-query): its status and output.
public struct TestCommand: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// Runs `arguments[0]` (a path) with the rest as its arguments, stdin /dev/null, and waits.
    /// Output goes through files, so a chatty command never blocks on a full pipe.
    /// - Parameter environment: variables added to the test runner's.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> TestCommand {
        let folder = FileManager.default.temporaryDirectory.appending(path: "installtop-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appending(path: "out")
        let errURL = folder.appending(path: "err")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        return TestCommand(
            status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    /// `run` from an async test, waiting on a thread of its own: Swift's concurrency pool has
    /// one thread per core, and a test that blocks one of them for a command's minutes under
    /// load (pytest, a .deb build) stalls every test that awaits meanwhile (a signal test's
    /// wait for its child's pid once outlasted the child's 300 s).
    public static func runOnOwnThread(_ arguments: [String], environment: [String: String] = [:]) async throws -> TestCommand {
        try await onOwnThread { try run(arguments, environment: environment) as TestCommand }
    }

    /// Like `run`, but throws `TestCommandError` unless the command exits 0.
    @discardableResult
    public static func check(_ arguments: [String], environment: [String: String] = [:]) throws -> TestCommand {
        let result = try run(arguments, environment: environment)
        guard result.status == 0 else { throw TestCommandError(arguments: arguments, result: result) }
        return result
    }
}
