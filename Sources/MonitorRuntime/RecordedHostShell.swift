import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import InstallHistory
import Monitor
import TerminalUI
import TextBasics

/// A shell on a host, recorded in the operator's history: a run of kind `shell` in the history
/// database at `historyPath` (`shell on HOST`, with its start, end, duration and ssh's exit
/// status), its output as an asciicast v2 file `shells/RUN.cast` beside the database (mode
/// 0700 folder, 0600 file), written as it happens, so nothing is lost when the link drops.
/// `installtop replay RUN` plays it back. What is typed is never recorded (passwords).
///
/// ssh runs on a pseudo-terminal of installtop's (`PseudoTerminalChild`), the operator's
/// terminal in raw mode (`RawTerminalMode`) with the bytes relayed both ways
/// (`TerminalRelay`); afterwards the terminal's settings are put back and every mode the
/// session's output may have set is reset (`TerminalModeReset`). When the history cannot be
/// opened the shell still opens, unrecorded, and the sentence says why.
public final class RecordedHostShell: HostShellOpener {
    /// Home and clear: the shell or the recording starts on an empty screen, not over what was
    /// there before the board.
    private static let clearScreen: [UInt8] = Array("\u{1B}[H\u{1B}[2J".utf8)
    /// The longest pause a recording played from the board keeps, in seconds: a shell left idle
    /// for an hour plays on at once.
    static let idleLimit = 2.0

    private let historyPath: String
    /// Readable when the board got SIGTERM or SIGHUP: the session is hung up at once.
    private let stopDescriptor: Int32

    public init(historyPath: String, stopDescriptor: Int32) {
        self.historyPath = historyPath
        self.stopDescriptor = stopDescriptor
    }

    public func openShell(on host: String, through ssh: SSHCommand) -> String {
        let arguments = ssh.shellArguments
        let startedAt = Date()
        let size = RawTerminalMode.size(of: 1) ?? (80, 24)
        var recording: (store: HistoryStore, run: Int64, writer: AsciicastWriter)?
        var notRecorded: String?
        do {
            let store = try HistoryStore(path: historyPath)
            let run = try store.reserveShellRun(host: host, startedAt: startedAt)
            let header = AsciicastHeader.beginning(
                at: startedAt, width: size.0, height: size.1, environment: ProcessInfo.processInfo.environment, title: "shell on \(host)")
            do {
                recording = (store, run, try AsciicastWriter(path: store.shellRecording(run: run), header: header))
            } catch {
                try? store.finishShellRun(run, host: host, startedAt: startedAt, endedAt: Date(), exitStatus: 1, reason: error.description)
                notRecorded = error.description
            }
        } catch {
            notRecorded = error.description
        }
        let place = recording.map { "recorded as run \($0.run)" } ?? "not recorded: \(notRecorded ?? "")"
        Self.write(TerminalModeReset.saveTitle + Self.clearScreen)
        Self.say("installtop: shell on \(host) (\(place)); exit the shell to return to the board\r\n")

        let status: Int32
        var lastWords: String?
        var modes = TerminalModeTracker()
        do {
            let child = try PseudoTerminalChild(arguments: arguments, columns: size.0, rows: size.1)
            var raw = RawTerminalMode(descriptor: 0)
            var relay = TerminalRelay(child: child, recorder: recording?.writer, stopDescriptor: stopDescriptor, size: size)
            status = relay.run()
            raw.restore()
            lastWords = Self.lastLine(of: relay.tail)
            modes = relay.modes
        } catch {
            status = 127
            lastWords = error.description
            recording?.writer.output(Array("\(error.description)\r\n".utf8), at: 0)
            recording?.writer.finish(at: 0)
        }
        Self.write(TerminalModeReset.bytes(after: modes))

        let endedAt = Date()
        let duration = Self.clock(endedAt.timeIntervalSince(startedAt))
        let ending = status == 0
            ? "Shell on \(host) ended after \(duration)"
            : "Shell on \(host) failed (exit status \(status) after \(duration))" + (lastWords.map { ": \($0)" } ?? "")
        guard let recording else { return "\(ending) · not recorded: \(notRecorded ?? "")" }
        // The command as it would be typed: the history named when it is not the default one.
        let elsewhere = historyPath == HistoryStore.defaultPath() ? "" : " --history-db \(historyPath)"
        var sentence = "\(ending) · installtop replay \(recording.run)\(elsewhere)"
        if let failure = recording.writer.failure { sentence += " · the recording stopped: \(failure.description)" }
        do {
            try recording.store.finishShellRun(recording.run, host: host, startedAt: startedAt, endedAt: endedAt,
                                               exitStatus: status, reason: lastWords)
        } catch {
            sentence += " · its end was not recorded: \(error.description)"
        }
        // And in the host's own history, unless ssh never reached it (255: nothing to keep there).
        if status != 255 {
            Self.say("installtop: keeping the recording on \(host) too...\r\n")
            sentence += " · " + HostShellKeeper(ssh: ssh).keep(recording: recording.store.shellRecording(run: recording.run),
                                                                startedAt: startedAt, endedAt: endedAt, exitStatus: status, reason: lastWords)
        }
        return sentence
    }

    public func replay(run: Int) -> String {
        let recording: AsciicastRecording
        let name: String
        do {
            let store = try HistoryStore(path: historyPath, createIfMissing: false)
            guard let found = try store.jobRun(Int64(run)), found.kind == JobRun.shellKind else {
                return "\(historyPath) holds no shell run \(run)"
            }
            name = found.name
            recording = try AsciicastRecording.read(path: store.shellRecording(run: Int64(run)))
        } catch let error as AsciicastRecording.ReadError {
            return "Run \(run) cannot be played: \(error.description)"
        } catch {
            return "Run \(run) cannot be played: \(error)"
        }
        let player = RecordingPlayer(stopDescriptor: stopDescriptor)
        var raw = RawTerminalMode(descriptor: 0)
        defer { raw.restore() }
        player.write(TerminalModeReset.saveTitle + Self.clearScreen)
        player.write(Array("installtop: run \(run), \(name) (pauses cut to \(Int(Self.idleLimit)) s); a key stops it\r\n".utf8))
        var modes = TerminalModeTracker()
        let ending = player.play(AsciicastSchedule(recording, idleLimit: Self.idleLimit), modes: &modes)
        player.write(TerminalModeReset.bytes(after: modes))
        switch ending {
        case .played:
            player.write(Array("\r\ninstalltop: end of run \(run); a key returns to the board\r\n".utf8))
            // However long the operator reads it; the board's own signals end the wait too.
            _ = player.wait(milliseconds: -1)
            return "Played run \(run), \(name)"
        case .keyPressed:
            return "Stopped playing run \(run), \(name)"
        case .stopped:
            return "Stopped playing run \(run)"
        }
    }

    public func loadShellRuns(onHost host: String, limit: Int, posting mailbox: Mailbox) {
        let path = historyPath
        EngineThread.detach(named: "installtop-shell") {
            let runs = (try? HistoryStore(path: path, createIfMissing: false).shellRuns(onHost: host, limit: limit)) ?? []
            let rows = runs.map(JobRunRow.init(run:))
            mailbox.post(.monitor(.shellRunsLoaded(host: host, rows)))
        }
    }

    /// The last line of `bytes` that says something, without escape sequences or control
    /// characters, at most 200 characters; `nil` when none.
    static func lastLine(of bytes: [UInt8]) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        text = EscapeSequenceStripper.stripping(text)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { String($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init)).trimmingSpaces }
        guard let last = lines.last(where: { !$0.isEmpty }) else { return nil }
        return last.count > 200 ? String(last.prefix(199)) + "…" : last
    }

    /// `0:42`, `1:02:03`.
    private static func clock(_ seconds: TimeInterval) -> String {
        let total = Int(max(0, seconds))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let tail = CFormat.twoDigits(rest)
        return hours > 0 ? "\(hours):" + CFormat.twoDigits(minutes) + ":" + tail : "\(minutes):" + tail
    }

    private static func say(_ text: String) { write(Array(text.utf8)) }

    private static func write(_ bytes: [UInt8]) { TerminalOutput.write(bytes) }
}
