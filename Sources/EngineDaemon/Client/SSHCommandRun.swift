import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import TextBasics

/// One run of a command on a host through the operator's ssh (`SSHCommand`: the board's
/// invocation, `BatchMode=yes`), a file fed to its stdin when asked, its stdout's lines handed
/// over as they come, within a deadline: what `enroll` runs its scripts with, and what the
/// board keeps a shell's recording on its host with.
public struct SSHCommandRun: Sendable {
    /// How ssh ended, and what it said itself.
    public struct Outcome: Sendable {
        /// ssh's exit status (255: ssh itself failed, as when the host cannot be reached), or
        /// 128 + the signal; `nil` when the run was ended at its deadline.
        public var status: Int32?
        /// The last line ssh (or the remote shell, or sudo) wrote on stderr, empty for none.
        public var lastWords: String

        public init(status: Int32?, lastWords: String) {
            self.status = status
            self.lastWords = lastWords
        }
    }

    public let command: SSHCommand
    /// How long the whole run may take, copying included.
    public let deadline: Duration

    public init(command: SSHCommand, deadline: Duration) {
        self.command = command
        self.deadline = deadline
    }

    /// Runs the command, feeding `input`'s bytes (a file on this machine) to its stdin, else an
    /// empty stdin, and calls `line` with each line of its stdout as it arrives (on this
    /// thread). At the deadline ssh and what it started here are ended (SIGTERM, SIGKILL after
    /// 5 s).
    public func run(input: String?, line: (String) -> Void) -> Outcome {
        let child: PipedChild
        do {
            child = try PipedChild(arguments: command.arguments)
        } catch {
            return Outcome(status: 255, lastWords: error.description)
        }
        let fed = DispatchSemaphore(value: 0)
        if let input {
            // A thread of its own: the write blocks while the host reads slowly, and the reads
            // below must go on meanwhile (the host may print while the copy ends).
            EngineThread.detach(named: "installtop-ssh") {
                Self.feed(input, to: child)
                child.closeInput()
                fed.signal()
            }
        } else {
            child.closeInput()
            fed.signal()
        }
        let (stderr, timedOut) = Self.read(child, until: ContinuousClock.now + deadline, line: line)
        let status = timedOut ? nil : Optional(child.waitForExit())
        if timedOut { child.end() }
        fed.wait()
        let lastWords = String(decoding: stderr, as: UTF8.self).split(separator: "\n").last
            .map { $0.trimmingWhitespace } ?? ""
        return Outcome(status: status, lastWords: lastWords)
    }

    /// Why a run said nothing: ssh's last words, or how it ended.
    public static func silence(_ outcome: Outcome, deadline: Duration) -> String {
        guard let status = outcome.status else { return "no answer within \(deadline.components.seconds) s" }
        if !outcome.lastWords.isEmpty { return outcome.lastWords }
        return status == 255 ? "ssh failed (exit 255) and said nothing" : "the remote shell ended with status \(status) and said nothing"
    }

    /// Copies the file at `path` into the child's stdin, 64 KiB at a time, until it ends or the
    /// child stops reading.
    private static func feed(_ path: String, to child: PipedChild) {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0, child.write(Array(chunk[..<count])) else { return }
        }
    }

    /// Reads stdout's lines (to `line`) and stderr's last 8 KiB until both end, or the child
    /// has exited and what it left in the pipes is read (an ssh ControlPersist master that
    /// ssh started keeps the pipes open long after), or `deadline` passes; returns stderr's
    /// bytes and whether the deadline passed.
    private static func read(_ child: PipedChild, until deadline: ContinuousClock.Instant,
                             line: (String) -> Void) -> (stderr: [UInt8], timedOut: Bool) {
        var lines = LineReader(maximumLength: 1 << 20)
        var stderr: [UInt8] = []
        var descriptors = [pollfd(fd: child.stdoutRead, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: child.stderrRead, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var exited = false
        while descriptors.contains(where: { $0.fd >= 0 }) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (stderr, true) }
            // A look at the child at least every quarter second; once it exited, only what
            // is in the pipes already.
            let wait = exited ? .zero : min(left, .milliseconds(250))
            let milliseconds = Int32(clamping: wait.wholeMilliseconds)
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, 2, milliseconds)
            guard ready >= 0 || errno == EINTR else { break }
            if ready == 0 {
                if exited { break }
                exited = child.wait(timeout: .zero) != nil
                continue
            }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if index == 0 {
                        for complete in buffer.withUnsafeBytes({ lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }) {
                            if case .complete(let bytes) = complete { line(String(decoding: bytes, as: UTF8.self)) }
                        }
                    } else {
                        stderr.append(contentsOf: buffer[0..<count])
                        if stderr.count > 8192 { stderr.removeFirst(stderr.count - 8192) }
                    }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    descriptors[index].fd = -1
                }
            }
        }
        return (stderr, false)
    }
}
