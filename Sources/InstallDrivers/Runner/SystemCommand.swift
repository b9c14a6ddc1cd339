import Glibc
import InstallEngine

/// Runs a short command to its end and keeps what it printed: apt's simulation, `apt-config`,
/// `dpkg-query`, `dpkg --audit`. Its stdin ends at once, so nothing can wait for an answer.
public struct SystemCommand: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Whether the command could not be started at all (missing, not executable).
    public var failedToStart: Bool { status == -1 }

    /// Runs `arguments` (the first one an absolute path) with installtop's environment plus
    /// `environment`, in a process group of its own, and waits for it. A command that cannot be
    /// started gives status -1 and the cause in `stderr` (`cannot run PATH: No such file or
    /// directory`). Under a `cancellation` that is cancelled, the command is killed (its status
    /// then 128 + 9), and one not yet started is not started (status -1, `cancelled`).
    public static func run(_ arguments: [String], environment: [String: String] = [:],
                           cancellation: CommandCancellation? = nil) -> SystemCommand {
        if cancellation?.isCancelled == true { return SystemCommand(status: -1, stdout: "", stderr: "cancelled") }
        let child: PipedChild
        do {
            child = try PipedChild(arguments: arguments, environment: environment)
        } catch {
            return SystemCommand(status: -1, stdout: "", stderr: error.description)
        }
        cancellation?.started(child.pid)
        // The end of its stdin at once, as /dev/null would give it.
        child.closeInput()
        let (stdout, stderr) = readToEnd(stdout: child.stdoutRead, stderr: child.stderrRead)
        cancellation?.ended(child.pid)
        return SystemCommand(status: child.waitForExit(), stdout: String(decoding: stdout, as: UTF8.self),
                             stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs `arguments` as `run` does and returns its stdout as bytes, for output that is not
    /// text (`dpkg-deb --ctrl-tarfile`'s tar stream); `nil` when it could not start or exited
    /// other than 0.
    public static func stdoutBytes(of arguments: [String], environment: [String: String] = [:]) -> [UInt8]? {
        guard let child = try? PipedChild(arguments: arguments, environment: environment) else { return nil }
        child.closeInput()
        let (stdout, _) = readToEnd(stdout: child.stdoutRead, stderr: child.stderrRead)
        return child.waitForExit() == 0 ? stdout : nil
    }

    /// Reads both pipes until each ends: at once, since a command that fills one while we wait
    /// on the other would never end. Without Foundation's `Process`, its run loop and its
    /// reading thread: `apt-config dump` is on the way to every apt transaction.
    private static func readToEnd(stdout: Int32, stderr: Int32) -> ([UInt8], [UInt8]) {
        var collected: [[UInt8]] = [[], []]
        var descriptors = [pollfd(fd: stdout, events: Int16(POLLIN), revents: 0), pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while descriptors.contains(where: { $0.fd >= 0 }) {
            for index in descriptors.indices { descriptors[index].revents = 0 }
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { break }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[index].append(contentsOf: buffer[0..<count])
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    // Its end (or an error reading it): poll ignores a negative descriptor.
                    descriptors[index].fd = -1
                }
            }
        }
        return (collected[0], collected[1])
    }
}
