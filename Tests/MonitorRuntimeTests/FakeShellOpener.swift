import EngineDaemon
import Foundation
import Monitor
import MonitorRuntime
import Synchronization

/// Stands in for the board's recorded shell: records each call with what the terminal had
/// been asked by then (`FakeTerminal.suspensions`), and says a fixed sentence.
final class FakeShellOpener: HostShellOpener, Sendable {
    struct Call: Sendable, Equatable {
        var host: String
        var arguments: [String]
        var suspensionsBefore: [Bool]
    }

    private let terminal: FakeTerminal
    private let recorded = Mutex<[Call]>([])

    init(terminal: FakeTerminal) {
        self.terminal = terminal
    }

    var calls: [Call] { recorded.withLock { $0 } }

    /// The runs `replay(run:)` was asked to play.
    var replayed: [Int] { played.withLock { $0 } }
    private let played = Mutex<[Int]>([])

    func replay(run: Int) -> String {
        played.withLock { $0.append(run) }
        return "Played run \(run), shell on web1"
    }

    /// Posts one shell run, 3, for every host.
    func loadShellRuns(onHost host: String, limit: Int, posting mailbox: Mailbox) {
        mailbox.post(.monitor(.shellRunsLoaded(host: host, [JobRunRow(id: 3, date: Date(), kind: "shell", name: "shell on \(host)",
                                                                       resultCode: .succeeded)])))
    }

    func openShell(on host: String, through ssh: SSHCommand) -> String {
        recorded.withLock { $0.append(Call(host: host, arguments: ssh.shellArguments, suspensionsBefore: terminal.suspensions)) }
        return "Shell on \(host) ended after 0:01 · installtop replay 3"
    }
}
