import APTTestSupport
import Foundation
import Glibc

/// A command run to completion (ip, ssh-keygen, ssh, ansible …): its status and output.
public struct FleetCommand: Sendable {
    /// The exit status, 128 + the signal's number when a signal ended it.
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// Runs `arguments[0]` (an absolute path) with the rest as its arguments, stdin /dev/null,
    /// and waits. Output goes through files, so a chatty command never blocks on a full pipe
    /// and an ssh ControlPersist master that keeps the descriptors does not hold the wait up.
    /// - Parameters:
    ///   - environment: variables added to the test runner's.
    ///   - timeout: after it the command gets SIGTERM (SIGKILL 2 s later) and this throws.
    ///   - silentFor: for a command that reports as it goes (ansible-playbook's task lines): it
    ///     is stopped as hung, and this throws, once it wrote nothing for this long; `timeout`
    ///     is then only the ceiling. A loaded machine slows such a run many times over while it
    ///     still makes progress: silence, not the total, tells a hang.
    public static func run(_ arguments: [String], environment: [String: String] = [:],
                           timeout: Duration = .seconds(120), silentFor: Duration? = nil) throws -> FleetCommand {
        let base = FileManager.default.temporaryDirectory.appending(path: "itop-cmd-\(UUID().uuidString)").path
        let outPath = base + ".out"
        let errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let child = try FleetChild(arguments, environment: environment, stdoutPath: outPath, stderrPath: errPath)
        var silence = OutputSilence(watching: [outPath, errPath], limit: silentFor)
        var silent = false
        _ = FleetPolling.until(.now + timeout) {
            if child.poll() != nil { return true }
            silent = silence.isSilent()
            return silent
        }
        let finished = silent ? nil : child.poll()
        let status = finished ?? child.stop(grace: .seconds(2))
        let result = FleetCommand(status: status, stdout: Self.read(outPath), stderr: Self.read(errPath))
        guard finished != nil else {
            let why = silent ? "wrote nothing for \(silentFor ?? timeout)" : "did not finish within \(timeout)"
            throw FleetTestError("\(arguments.joined(separator: " ")) \(why)\n\(result.stdout)\(result.stderr)")
        }
        return result
    }

    /// `run` from an async test: the wait happens on a thread of its own. Swift's concurrency
    /// pool has one thread per core (two here), and a test blocking one of them for the seconds
    /// an ansible-playbook takes stalls every other test that awaits something meanwhile.
    public static func run(_ arguments: [String], environment: [String: String] = [:],
                           timeout: Duration = .seconds(120), silentFor: Duration? = nil) async throws -> FleetCommand {
        try await onOwnThread { try run(arguments, environment: environment, timeout: timeout, silentFor: silentFor) as FleetCommand }
    }

    /// Like `run`, but throws unless the command exits 0.
    @discardableResult
    public static func check(_ arguments: [String], environment: [String: String] = [:],
                             timeout: Duration = .seconds(120)) throws -> FleetCommand {
        let result = try run(arguments, environment: environment, timeout: timeout)
        guard result.status == 0 else {
            throw FleetTestError("\(arguments.joined(separator: " ")) exited \(result.status)\n\(result.stdout)\(result.stderr)")
        }
        return result
    }

    /// Bytes that are not UTF-8 are replaced: a command's output must never make a test throw.
    static func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}
