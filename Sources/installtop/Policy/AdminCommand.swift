import Glibc
import InstallEngine

/// A command of a patch-night policy run on this machine (`before`, `after`, the gate's
/// `command`, `notify`): in the policy's folder, with installtop's environment and `environment`
/// added, `input` on its stdin. Its stdout and stderr go to installtop's stderr, so that a
/// timer's journal keeps them; the result carries its last line for the night's own line.
struct AdminCommand: Sendable {
    let command: UpdateCommand
    /// The policy's folder: the command's working directory.
    let folder: String

    /// How the command ended: `status` 0 is success; `lastLine` is its last non-empty line of
    /// output, or why it could not be started.
    struct Result: Sendable {
        let status: Int32
        let lastLine: String

        /// `exited 3: no quorum`, for the night's line.
        var failure: String {
            let said = lastLine.isEmpty ? "" : ": \(lastLine)"
            return status >= 128 ? "ended by signal \(status - 128)\(said)" : "exited \(status)\(said)"
        }
    }

    /// The arguments: `/bin/sh` changes to the policy's folder, then runs the command there, so
    /// that a program given relative to the policy is found as `--check` found it.
    var arguments: [String] {
        switch command {
        case .argv(let argv): ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", folder] + argv
        case .shell(let script): ["/bin/sh", "-c", "cd -- \"$0\" && eval \"$1\"", folder, script]
        }
    }

    /// Runs the command and waits for it, however long it takes (the window's end does not cut
    /// a command short, as it lets a running host finish). Blocks: call it off the cooperative pool.
    func run(environment: [String: String] = [:], input: [UInt8] = []) -> Result {
        let child: PipedChild
        do {
            child = try PipedChild(arguments: arguments, environment: environment)
        } catch {
            return Result(status: 127, lastLine: error.description)
        }
        // The input goes on a thread of its own: a command that writes much before it reads must
        // not wait for a writer that waits for it.
        let bytes = input
        EngineThread.detach(named: "installtop-admin-in") {
            if !bytes.isEmpty { _ = child.write(bytes) }
            child.closeInput()
        }
        let output = Self.drain(child)
        let status = child.waitForExit()
        let last = output.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
        return Result(status: status, lastLine: String(last.prefix(500)))
    }

    /// Copies the child's stdout and stderr to installtop's stderr until both end; returns the
    /// last 4 KiB of it.
    private static func drain(_ child: PipedChild) -> String {
        var open = [child.stdoutRead, child.stderrRead]
        var tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    let chunk = buffer[..<count]
                    _ = chunk.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
                    tail += chunk
                    if tail.count > 4096 { tail.removeFirst(tail.count - 4096) }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        return String(decoding: tail, as: UTF8.self)
    }
}
