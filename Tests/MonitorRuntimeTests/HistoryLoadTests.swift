import Dispatch
import Foundation
import Glibc
import InstallEngine
import Monitor
import MonitorRuntime
import Synchronization
import Testing
import TestProcessSupport

/// The `h` view with the engine in this process: the history is read off the monitor's thread.
@Suite("History view loading")
struct HistoryLoadTests {
    @Test("while a slow history load runs, the monitor shows loading…, keeps drawing and answers keys; the rows come after")
    func slowLoadDoesNotBlockTheLoop() async throws {
        // The loader holds until the test opens the gate, as a store behind a slow disk or
        // another writer's lock would (a wait with a deadline, so a failure cannot hang the run).
        let gate = DispatchSemaphore(value: 0)
        let loads = Atomic<Int>(0)
        let history = MonitorHistory { _ in
            loads.add(1, ordering: .relaxed)
            _ = gate.wait(timeout: .now() + 600)
            return .historyLoaded([HistoryRow(date: nil, resultCode: .succeeded, updateID: "lab-a", title: "Lab A 2.0", jobName: "Job 7")])
        }
        let link = LocalEngineLink(queue: JobQueue(backend: ProcessBackend()), history: history)
        let terminal = FakeTerminal()
        let mailbox = try Mailbox()
        link.start(posting: mailbox)
        let state = MonitorState(width: 100, height: 30, now: Date())
        let themes = ThemeCatalog(userDirectory: "/nonexistent/installtop-tests").themes
        let ended = Atomic<Bool>(false)
        let thread = Thread {
            var loop = MonitorLoop(link: link, terminal: terminal, mailbox: mailbox, themes: themes, exitWhenDone: false, state: state)
            _ = loop.run()
            ended.store(true, ordering: .releasing)
        }
        thread.start()
        defer {
            gate.signal()
            gate.signal()
            terminal.send(signal: SIGTERM)
        }
        func screen() -> String { terminal.frames.last?.lines.joined(separator: "\n") ?? "" }

        #expect(await eventually { !terminal.frames.isEmpty })
        terminal.type(.character("h"))
        #expect(await eventually { loads.load(ordering: .relaxed) == 1 && screen().contains("History") && screen().contains("loading") },
                "the view does not say it is loading: \(screen())")

        // The load is held: the loop still answers keys and draws. Escape closes the view; `h`
        // opens it again (its load waits behind the first: one reader).
        terminal.type(.escape)
        #expect(await eventually { !screen().contains("History") }, "the view did not close during the load: \(screen())")
        terminal.type(.character("h"))
        #expect(await eventually { screen().contains("History") && screen().contains("loading") },
                "the view did not open again during the load: \(screen())")
        #expect(!screen().contains("Lab A 2.0"))
        let endedDuringLoad = ended.load(ordering: .acquiring)
        #expect(!endedDuringLoad)

        gate.signal()
        gate.signal()
        #expect(await eventually { screen().contains("Lab A 2.0") && !screen().contains("loading") }, "the rows never came: \(screen())")
        #expect(await eventually { loads.load(ordering: .relaxed) == 2 })
        terminal.send(signal: SIGTERM)
        #expect(await eventually { ended.load(ordering: .acquiring) })
    }
}
