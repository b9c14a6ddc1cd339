import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import InstallEngineTesting
import Monitor
import Synchronization
import Testing
import TestProcessSupport

@testable import MonitorRuntime

/// Issue 34, item 4 and its test: a 20 MB output flood on one host while the board is attached
/// to it over a link that reads slowly (2 MiB/s), beside a second host. Every state change of
/// the flooded job arrives, in order; its lines either arrive or are counted in a note; the
/// link is never dropped; and the other host's events are not held up behind the flood.
@Suite("Board: a flood over a throttled link")
struct BoardThrottledLinkTests {
    /// The board's mailbox read on a thread of the test's, each item with when it came.
    private final class Reader: Sendable {
        let items = Mutex<[(item: MailboxItem, at: ContinuousClock.Instant)]>([])
        let stop = Atomic<Bool>(false)

        init(_ mailbox: Mailbox) {
            Thread.detachNewThread { [self] in
                while !stop.load(ordering: .relaxed) {
                    let drained = mailbox.drain()
                    let now = ContinuousClock.now
                    if !drained.isEmpty { items.withLock { $0 += drained.map { ($0, now) } } }
                    usleep(2_000)
                }
            }
        }

        var all: [(item: MailboxItem, at: ContinuousClock.Instant)] { items.withLock { $0 } }
    }

    @Test("20 MB on a 2 MiB/s link: every state change in order, every line shown or counted, no drop; the other host's completion comes at once")
    func floodOverAThrottledLink() async throws {
        let lines = 100_000
        let text = String(repeating: "z", count: 200)
        let flooding = ScriptedBackend(defaultScript: UpdateScript(reports: (0..<lines).map { .output(.stdout, "\($0) \(text)") },
                                                                  ending: .whenReleased))
        let quiet = ScriptedBackend(defaultScript: UpdateScript(reports: [], ending: .whenReleased))
        let floodEngine = try TestEngine(backend: flooding)
        defer { floodEngine.stop() }
        let quietEngine = try TestEngine(backend: quiet)
        defer { quietEngine.stop() }
        let ssh = try ThrottledSSH(in: floodEngine.directory.path)
        let link = HostsEngineLink(hosts: [
            SSHCommand(host: floodEngine.socketPath, remoteCommand: String(2 << 20), program: ssh.path),
            SSHCommand(host: quietEngine.socketPath, remoteCommand: "0", program: ssh.path),
        ])
        let mailbox = try Mailbox()
        let reader = Reader(mailbox)
        link.start(posting: mailbox)
        defer {
            link.stop()
            reader.stop.store(true, ordering: .relaxed)
        }
        func replaced(_ host: String) -> Bool {
            reader.all.contains { if case .monitor(.host(.queueReplaced(host))) = $0.item { true } else { false } }
        }
        try #require(await eventually { replaced(floodEngine.socketPath) && replaced(quietEngine.socketPath) }, "\(reader.all.suffix(5))")

        try floodEngine.queue.submit(name: "flood", updates: [update("flood")])
        try quietEngine.queue.submit(name: "quiet", updates: [update("quiet")])
        // The flood is under way on the board: its lines come over the slow link.
        func outputs() -> Int {
            reader.all.count { if case .engine(let event) = $0.item, case .output = event.kind { true } else { false } }
        }
        try #require(await eventually { outputs() > 1_000 })
        func boardJob(of host: String) -> Int? {
            reader.all.lazy.compactMap { entry -> Int? in
                if case .monitor(.host(.jobOrigin(let board, let origin))) = entry.item, origin.host == host { return board }
                return nil
            }.first
        }
        let quietJob = try #require(boardJob(of: quietEngine.socketPath))
        let floodJob = try #require(boardJob(of: floodEngine.socketPath))
        func completed(_ job: Int) -> ContinuousClock.Instant? {
            reader.all.first { if case .engine(let event) = $0.item, case .jobCompleted(let end) = event.kind, end.job == job { true } else { false } }?.at
        }

        // The quiet host's job ends while the flood goes on: its completion must not wait behind
        // the flooded link (issue 34: "one slow or hung host never slows the board or the others").
        let released = ContinuousClock.now
        quiet.release("quiet")
        try #require(await eventually { completed(quietJob) != nil })
        let delay = try #require(completed(quietJob)) - released
        #expect(delay < .seconds(30), "the quiet host's completion took \(delay) behind the flood")
        print("the quiet host's completion reached the board \(delay) after its engine was told to end it")

        // A scripted update stops reporting once released: release it only after its engine has
        // taken its last line (the link is still behind then).
        try #require(await eventually(timeout: .seconds(600)) {
            floodEngine.queue.snapshot().jobs.first?.updates.first?.output.lines.last?.text.hasPrefix("\(lines - 1) ") == true
        })
        flooding.release("flood")
        try #require(await eventually(timeout: .seconds(600)) { completed(floodJob) != nil }, "\(reader.all.suffix(5))")

        // Every state change of the flooded job, in order, and every line arrived or counted.
        var kinds: [String] = []
        var received = 0
        var counted = 0
        for entry in reader.all {
            guard case .engine(let event) = entry.item, event.job == floodJob else { continue }
            switch event.kind {
            case .jobQueued: kinds.append("queued")
            case .jobStarted: kinds.append("started")
            case .updateStarted: kinds.append("update started")
            case .updateCompleted: kinds.append("update completed")
            case .jobCompleted: kinds.append("completed")
            case .output(let output) where output.stream == .stdout:
                received += 1
            case .output(let output):
                // A note of the lines one hop did not pass on (the engine's outbox for this
                // client, the monitor's mailbox): "installtop: N lines of output skipped here: …".
                let words = output.line.split(separator: " ")
                if output.line.contains("skipped here"), words.count > 1, let count = Int(words[1]) { counted += count }
            default:
                break
            }
        }
        #expect(kinds == ["queued", "started", "update started", "update completed", "completed"], "\(kinds)")
        #expect(received + counted == lines, "\(received) lines shown + \(counted) counted in notes")
        #expect(!reader.all.contains { if case .monitor(.host(.unreachable)) = $0.item { true } else { false } }, "the slow link was never dropped")
        #expect(!floodEngine.log.contains("closed"), "\(floodEngine.log.all)")
        print("flood: \(received) lines shown, \(counted) counted in notes")

    }
}
