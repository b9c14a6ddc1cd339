import EngineDaemon
import Foundation
import InstallEngine
import MonitorRuntime
import Synchronization

/// An engine link the test drives: it posts into the loop's mailbox and records the commands
/// the loop sends.
final class FakeLink: EngineLink {
    let jobsOutliveMonitor: Bool
    private let mailbox = Mutex<Mailbox?>(nil)
    private let commands = Mutex<[JobCommand]>([])

    init(jobsOutliveMonitor: Bool = false) {
        self.jobsOutliveMonitor = jobsOutliveMonitor
    }

    var isStarted: Bool { mailbox.withLock { $0 != nil } }
    var performed: [JobCommand] { commands.withLock { $0 } }

    func post(_ item: MailboxItem) {
        mailbox.withLock { $0 }?.post(item)
    }

    func post(_ kind: EngineEvent.Kind, at time: Date = Date()) {
        post(.engine(EngineEvent(time: time, kind: kind)))
    }

    func start(posting mailbox: Mailbox) { self.mailbox.withLock { $0 = mailbox } }
    func perform(_ command: JobCommand) { commands.withLock { $0.append(command) } }
    func submit(name: String, updates: [Update]) {}
    func loadHistory(limit: Int) {}
    func loadJobRuns(limit: Int) {}
    func undo(run: Int) {}
    func keep(run: Int, onHost host: String?) {}
    func stop() { mailbox.withLock { $0 = nil } }
    /// A board's: every host is reached as `ssh -- HOST installtop bridge` (its shell `ssh -t -- HOST`).
    func sshCommand(ofHost host: String) -> SSHCommand? { SSHCommand(host: host) }
}
