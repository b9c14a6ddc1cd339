import Foundation
import Synchronization

/// Runs a short command to its end and keeps what it printed: apt's simulation, `apt-config`,
/// `dpkg-query`, `dpkg --audit`. stdin is /dev/null, so nothing can wait for an answer.
public struct SystemCommand: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Whether the command could not be started at all (missing, not executable).
    public var failedToStart: Bool { status == -1 }

    /// Runs `arguments` (the first one an absolute path) with installtop's environment plus
    /// `environment`. A command that cannot be started gives status -1 and the cause in `stderr`.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) -> SystemCommand {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return SystemCommand(status: -1, stdout: "", stderr: "cannot run \(arguments[0]): \(error.localizedDescription)")
        }
        // Both pipes are read at once: a command that fills one while we wait on the other
        // would never end.
        let errorData = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            errorsRead.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return SystemCommand(status: status, stdout: String(decoding: outputData, as: UTF8.self),
                             stderr: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
