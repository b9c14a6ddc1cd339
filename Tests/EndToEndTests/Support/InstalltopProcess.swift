import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import TestProcessSupport

/// One running `installtop`, started the way a shell would (see `SpawnedProcess`): stdin
/// /dev/null, stdout and stderr captured to files in the test's folder (readable while it
/// runs), a controlled environment.
///
/// The environment is the test runner's plus `SWIFT_BACKTRACE=interactive=no`,
/// `LANG=C.UTF-8` (LC_ALL and LC_CTYPE removed), `XDG_STATE_HOME` and `TMPDIR` inside the
/// test folder (so nothing touches the real history or leaves demo folders behind),
/// `INSTALLTOP_SYSTEMD_RUNNING=0` (no test hands systemd a timer or a restart unless it sets
/// fake tools), and `INSTALLTOP_E2E_MARKER`, a unique value every descendant inherits (see
/// `leftovers`).
final class InstalltopProcess {
    let arguments: [String]
    /// Unique to this run; found in the environment of every process it started.
    let marker = "installtop-e2e-" + UUID().uuidString
    private let process: SpawnedProcess
    private let stdoutPath: String
    private let stderrPath: String

    /// Starts installtop with `arguments` in `folder`.
    ///
    /// - Parameters:
    ///   - executable: another program to run the same way (a tool such as sqlite3); installtop when `nil`.
    ///   - workingDirectory: the current directory; the test folder when `nil`.
    ///   - environment: extra variables, applied last.
    init(_ arguments: [String], in folder: TestFolder, executable: String? = nil, workingDirectory: String? = nil,
         environment: [String: String] = [:]) throws {
        self.arguments = arguments
        let name = UUID().uuidString.prefix(8)
        stdoutPath = folder.file("installtop-\(name).stdout")
        stderrPath = folder.file("installtop-\(name).stderr")
        for path in [stdoutPath, stderrPath] { try Data().write(to: URL(fileURLWithPath: path)) }
        let stateHome = folder.file("state")
        let temporary = folder.file("tmp")
        for path in [stateHome, temporary] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        var variables = ProcessInfo.processInfo.environment
        variables["LC_ALL"] = nil
        variables["LC_CTYPE"] = nil
        variables["SWIFT_BACKTRACE"] = "interactive=no"
        variables["LANG"] = "C.UTF-8"
        variables["XDG_STATE_HOME"] = stateHome
        variables["TMPDIR"] = temporary
        variables["INSTALLTOP_E2E_MARKER"] = marker
        // systemd is never handed anything by a test (a commit-confirmed run's revert timer,
        // its services' restart): a test that means to sets fake tools and 1.
        variables["INSTALLTOP_SYSTEMD_RUNNING"] = "0"
        variables.merge(environment) { _, extra in extra }

        process = try SpawnedProcess(
            executable: try executable ?? InstalltopBinary.path(), arguments: arguments, environment: variables,
            workingDirectory: workingDirectory ?? folder.path, stdoutPath: stdoutPath, stderrPath: stderrPath)
    }

    var pid: pid_t { process.pid }

    /// Everything written to stdout so far.
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// Everything written to stdout so far, as bytes.
    var stdoutBytes: Data { FileManager.default.contents(atPath: stdoutPath) ?? Data() }
    /// Everything written to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` to installtop itself (not to its children's process groups).
    func send(_ signal: Int32) {
        kill(process.pid, signal)
    }

    /// Sends `signal` to installtop the moment stdout contains `text`, watching from a thread
    /// of its own: the reaction is timing-critical (the run moves on), and a loaded test pool
    /// can hold an async poll up for seconds.
    func send(_ signal: Int32, whenOutputContains text: String, timeout: Duration = .seconds(180)) async throws {
        let path = stdoutPath
        try await send(signal, when: { (try? String(contentsOfFile: path, encoding: .utf8))?.contains(text) == true ? () : nil },
                       waitingFor: "installtop's stdout to contain \(text.debugDescription)", timeout: timeout)
    }

    /// Sends `signal` to installtop the moment each of `files` holds a process id (as a script
    /// writes its own and its children's), from a thread of its own like
    /// `send(_:whenOutputContains:)`: a pool held up for minutes by other tests' blocking
    /// commands once sent it after the child it was to abort had ended by itself.
    /// - Returns: the processes the files name, identified before the signal was sent.
    @discardableResult
    func send(_ signal: Int32, whenPidsAreIn files: [String], timeout: Duration = .seconds(180)) async throws -> [ProcessIdentity] {
        try await send(signal, when: {
            let pids = files.compactMap { pid_t((try? String(contentsOfFile: $0, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") }
            return pids.count == files.count ? pids.map { ProcessIdentity(pid: $0) } : nil
        }, waitingFor: "process ids in \(files.joined(separator: ", "))", timeout: timeout)
    }

    /// Sends `signal` once `ready` gives a value (polled every 2 ms from a thread of its own)
    /// and returns that value.
    private func send<Value: Sendable>(_ signal: Int32, when ready: @escaping @Sendable () -> Value?, waitingFor what: String,
                                       timeout: Duration) async throws -> Value {
        let pid = process.pid
        let sent = try await onOwnThread { () -> Value? in
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let value = ready() {
                    kill(pid, signal)
                    return value
                }
                usleep(2_000)
            }
            return nil
        }
        guard let sent else {
            throw EndToEndError.conditionNotMet("\(what); stdout:\n\(stdout)\nstderr:\n\(stderr)")
        }
        return sent
    }

    /// Waits until stdout contains `text`.
    func waitForOutput(_ text: String, timeout: Duration = .seconds(180)) async throws {
        try await waitUntil("installtop's stdout to contain \(text.debugDescription); it holds:\n\(stdout)\nstderr:\n\(stderr)",
                            timeout: timeout) { stdout.contains(text) }
    }

    /// Waits for installtop to exit and returns what it did. Past `timeout` it is killed with
    /// SIGKILL and `timedOut` is thrown with its output so far.
    ///
    /// - Parameter silentFor: for a run that reports as it goes (an ansible play's events): it
    ///   is killed as hung once it wrote nothing to stdout or stderr for this long, and
    ///   `timeout` is only the ceiling. A loaded machine slows such a run many times over (a
    ///   6 s play took over 120 s on CI beside the other fleet suites) while it still makes
    ///   progress; silence, not the total, is what tells a hang.
    func finish(timeout: Duration = .seconds(180), silentFor: Duration? = nil) async throws -> RunResult {
        var silence = OutputSilence(watching: [stdoutPath, stderrPath], limit: silentFor)
        var silent = false
        let exited = await eventually(timeout: timeout) {
            if process.poll() != nil { return true }
            silent = silence.isSilent()
            return silent
        }
        guard exited, !silent else {
            kill(process.pid, SIGKILL)
            _ = process.waitBlocking()
            let waited = silent ? silentFor ?? timeout : timeout
            throw EndToEndError.timedOut(arguments: arguments, seconds: Int(waited.components.seconds), silent: silent,
                                         stdout: stdout, stderr: stderr)
        }
        let status = process.waitBlocking()
        return RunResult(status: status, stdout: stdout, stdoutBytes: stdoutBytes, stderr: stderr)
    }

    /// The live processes this run started that are still around (should be none once it exited).
    var leftovers: [pid_t] { liveProcesses(withEnvironmentMarker: marker) }

    /// A test that failed half-way leaves nothing running: installtop and everything it
    /// started get SIGKILL.
    deinit {
        if process.poll() == nil {
            kill(process.pid, SIGKILL)
            _ = process.waitBlocking()
        }
        for pid in leftovers { kill(pid, SIGKILL) }
    }
}

/// Runs installtop to completion (see `InstalltopProcess`) and returns what it did.
func installtop(_ arguments: [String], in folder: TestFolder, workingDirectory: String? = nil,
                environment: [String: String] = [:], timeout: Duration = .seconds(180)) async throws -> RunResult {
    try await InstalltopProcess(arguments, in: folder, workingDirectory: workingDirectory, environment: environment)
        .finish(timeout: timeout)
}
