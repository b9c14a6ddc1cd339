import Foundation
import TestProcessSupport
import Testing

/// `installtop` running in a detached tmux session on a private socket, at a pinned size and
/// locale: the end-to-end tests type into it and read the screen back. `close()` kills the
/// server and removes the socket.
final class TmuxSession {
    let socket = "installtop-e2e-\(UUID().uuidString.prefix(8))"
    /// The tmux server, to end it when `kill-server` is not heard. Not a child of the test (tmux
    /// forks it off): by the time the session closes it may be long gone and its id another's.
    private var server: ProcessIdentity?

    /// Starts `command` (run by /bin/sh) with `LANG=C.UTF-8`, `TERM=xterm-256color`, no
    /// `NO_COLOR`, `HOME` set to `home` and no interactive backtraces. Tests end the command with
    /// `sleep 3600`: the pane, and the screen the program under test left, stay until `close()`
    /// however slow the machine (with `sleep 60`, a test starved for a minute read an empty
    /// screen from a session that had ended).
    init(width: Int = 100, height: Int = 30, home: URL, command: String) throws {
        // tmux ignores `-e TERM=`: the pane command sets the environment itself.
        let pane = "env -u NO_COLOR LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color SWIFT_BACKTRACE=interactive=no "
            + "HOME='\(home.path)' XDG_CONFIG_HOME='\(home.path)/config' /bin/sh -c \(Self.quoted(command))"
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", pane])
        server = pid_t(try tmux(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)).map(ProcessIdentity.init)
    }

    /// The screen as text, one line per row.
    func capture() -> String {
        (try? tmux(["capture-pane", "-p"])) ?? ""
    }

    /// The screen and every line scrolled off its top, as text: what a terminal's scrollback
    /// holds once the program has printed more than a screen.
    func captureWithScrollback() -> String {
        (try? tmux(["capture-pane", "-p", "-S", "-"])) ?? ""
    }

    /// The pane's title (what an OSC 0 sequence would change).
    func paneTitle() -> String {
        ((try? tmux(["display-message", "-p", "#{pane_title}"])) ?? "").trimmingCharacters(in: .newlines)
    }

    /// A tmux format expanded for the pane (`#{mouse_any_flag}`, `#{alternate_on}`): the
    /// terminal's modes as the program left them.
    func format(_ format: String) -> String {
        ((try? tmux(["display-message", "-p", format])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pid of the pane's first process (the shell running the command).
    var panePid: String {
        ((try? tmux(["display-message", "-p", "#{pane_pid}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every process of the pane's session (the pane's shell leads it) with its threads, a line
    /// each: id, name, state and where in the kernel it sleeps. Whether the program under test
    /// waited for input, ran, or was stuck when a screen never came.
    func paneProcesses() -> String {
        guard let session = Int32(panePid), let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return "" }
        return entries.compactMap(Int32.init).sorted().compactMap { pid -> String? in
            guard let fields = ProcessStat.fields(in: "/proc/\(pid)"), fields.count > 3, Int32(fields[3]) == session else { return nil }
            let threads = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [])
                .compactMap(Int32.init).sorted().map { "  " + Self.threadLine("/proc/\(pid)/task/\($0)", id: $0) }
            return ([Self.threadLine("/proc/\(pid)", id: pid)] + (threads.count > 1 ? threads : [])).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `1234 installtop S do_sys_poll` for the process or thread at `path` (`/proc/PID`,
    /// `/proc/PID/task/TID`).
    private static func threadLine(_ path: String, id: Int32) -> String {
        let name = ((try? String(contentsOfFile: path + "/comm", encoding: .utf8)) ?? "?").trimmingCharacters(in: .newlines)
        let wchan = (try? String(contentsOfFile: path + "/wchan", encoding: .utf8)) ?? ""
        return "\(id) \(name) \(ProcessStat.fields(in: path)?.first ?? "?") \(wchan.isEmpty ? "-" : wchan)"
    }

    /// Types keys, in tmux's names (`a`, `Enter`, `Escape`, `Down`). Keys tmux did not type
    /// are an issue of the test, with tmux's words: a test waiting for what a key does must
    /// not time out on a key that was never sent.
    func send(_ keys: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        typeKeys(["send-keys"] + keys, sourceLocation: sourceLocation)
    }

    /// Writes `text` to the pane byte for byte, as a terminal would send it (`send-keys -H`):
    /// escape sequences arrive as they are, not as tmux's idea of the key.
    func sendRaw(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        typeKeys(["send-keys", "-H"] + text.utf8.map { String($0, radix: 16) }, sourceLocation: sourceLocation)
    }

    private func typeKeys(_ arguments: [String], sourceLocation: SourceLocation) {
        do {
            try tmux(arguments)
        } catch {
            Issue.record("tmux typed nothing (\(arguments.dropFirst().joined(separator: " "))): \(error)", sourceLocation: sourceLocation)
        }
    }

    func resize(width: Int, height: Int) {
        _ = try? tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Polls the screen every 20 ms until `condition` holds (returns that screen) or the timeout passes
    /// (records an issue with the last screen and returns nil).
    ///
    /// A screen may be half-drawn: the kernel hands a terminal's output on in pieces of 2 KiB,
    /// and tmux answers between them (a program writing 6 KiB frames in one write, captured
    /// 400 times: 9 captures held parts of two frames; 2.2 KiB frames: 1; 1.5 KiB: none); and
    /// curses leaves a frame half-sent when a key is waiting, sending the rest with the next
    /// one. A new overlay's first frame is many KiB. A condition that is to say what the
    /// program's state is must look at what only that state draws, not at a new title with
    /// text the frame before may still show below it.
    @discardableResult
    func waitForScreen(
        _ what: String, timeout: Duration = .seconds(180), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) async -> String? {
        let (screen, held) = await lastScreen(within: timeout, condition)
        guard held else {
            Issue.record("timed out waiting for \(what); the screen was:\n\(screen)\nthe pane's processes:\n\(paneProcesses())",
                         sourceLocation: sourceLocation)
            return nil
        }
        Self.keep(screen, as: what)
        return screen
    }

    /// With `INSTALLTOP_TEST_SCREENS=FILE` in the test's environment, each screen a test waited
    /// for is appended to FILE under what it waited for: the screens of a run, to read as an
    /// operator would have seen them.
    private static func keep(_ screen: String, as what: String) {
        guard let file = ProcessInfo.processInfo.environment["INSTALLTOP_TEST_SCREENS"], !file.isEmpty else { return }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { $0.replacing(/\s+$/, with: "") }
        let text = "── \(what) ──\n" + lines.joined(separator: "\n").trimmingCharacters(in: .newlines) + "\n\n"
        guard let handle = FileHandle(forWritingAtPath: file) ?? (FileManager.default.createFile(atPath: file, contents: nil)
            ? FileHandle(forWritingAtPath: file) : nil) else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(text.utf8))
    }

    /// Polls the screen every 20 ms until `condition` holds or `timeout` passes; returns the last
    /// screen and whether it holds. Records nothing: for a caller that tries again.
    func lastScreen(within timeout: Duration, _ condition: (String) -> Bool) async -> (screen: String, held: Bool) {
        let deadline = ContinuousClock.now + timeout
        var screen = capture()
        while !condition(screen) {
            if ContinuousClock.now > deadline { return (screen, false) }
            try? await Task.sleep(for: .milliseconds(20))
            screen = capture()
        }
        return (screen, true)
    }

    func close() {
        _ = try? tmux(["kill-server"])
        // The server exits after its panes, about a second later; do not leave it behind if it
        // cannot. The watch runs on a thread of its own: sleeping here would hold a thread of
        // the pool every other test runs on.
        if let server {
            Thread.detachNewThread {
                let deadline = ContinuousClock.now + .seconds(3)
                while server.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
                server.send(SIGTERM)
            }
        }
        let uid = getuid()
        let base = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(base)/tmux-\(uid)/\(socket)")
    }

    // MARK: - Private

    /// How long one tmux client may take: milliseconds as a rule, seconds on a starved machine;
    /// past this, the server is taken to be wedged.
    private static let clientTimeout: Duration = .seconds(30)

    /// Runs tmux on this session's socket and returns what it printed. Spawned and reaped by
    /// hand (posix_spawn, waitpid) rather than with Foundation's Process, whose reaping hung in
    /// the test process. The output goes through a file: the server forked by `new-session`
    /// would keep a pipe open forever.
    /// - Throws: `EndToEndError` when tmux cannot be started (after trying again while the
    ///   machine is out of processes or memory for a moment), does not answer in time, or exits
    ///   with a failure (with what it said on stderr).
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        let errorPath = outputPath + ".err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The server forked from this client lives on: it must not hold the test process's files.
        try addCloseFrom(3, to: &actions)
        let argv = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" }.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let deadline = ContinuousClock.now + Self.clientTimeout
        var status: Int32
        repeat {
            status = withCStrings(argv) { argv in
                withCStrings(environment) { environment in
                    withShellLikeSignals { attributes in
                        posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environment)
                    }
                }
            }
            // A machine out of processes or memory for a moment: nothing was sent yet.
            guard status == EAGAIN || status == ENOMEM, ContinuousClock.now < deadline else { break }
            usleep(10_000)
        } while true
        guard status == 0 else { throw EndToEndError("cannot run tmux: \(String(cString: strerror(status)))") }
        // A client answers in milliseconds; one that hangs (a wedged server) must fail the
        // test, not hold the whole run until CI's time runs out.
        let answerBy = ContinuousClock.now + Self.clientTimeout
        var exitStatus: Int32 = 0
        var reaped: pid_t
        repeat {
            reaped = waitpid(pid, &exitStatus, WNOHANG)
            if reaped == 0 {
                guard ContinuousClock.now < answerBy else {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &exitStatus, 0) == -1, errno == EINTR {}
                    throw EndToEndError("tmux \(arguments.first ?? "") did not answer in \(Self.clientTimeout)")
                }
                usleep(1_000)
            }
        } while reaped == 0 || (reaped == -1 && errno == EINTR)
        // Exited with a failure (the code tmux exits with is in the status's second byte).
        if reaped == pid, exitStatus & 0x7F != 0 || (exitStatus >> 8) & 0xFF != 0 {
            let said = ((try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            throw EndToEndError("tmux \(arguments.first ?? "") failed (wait status \(exitStatus))\(said.isEmpty ? "" : ": " + said)")
        }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
