import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

@Suite("Monitor attached to an engine: q, d and signals detach")
struct MonitorAttachTests {
    /// A running job and a queued one, so a local monitor would ask before quitting.
    private func busy(attached: Bool, height: Int = 24) -> Scenario {
        var scenario = Scenario(height: height)
        let job = scenario.queue("Security updates", ["OpenSSL", "libc6"])
        scenario.queue("Kernel", ["linux"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.progress(job, 0, 40, message: "Unpacking")
        scenario.state.isAttached = attached
        return scenario
    }

    private func footer(_ scenario: Scenario) -> String {
        scenario.render().lines.last ?? ""
    }

    // MARK: - Keys

    @Test(arguments: ["q", "d"] as [Character])
    func attachedKeysDetachAtOnceWhileJobsRun(key: Character) {
        var scenario = busy(attached: true)
        let effects = scenario.press(.character(key))
        #expect(Scenario.commands(effects) == [.quit(abortRunning: false)])
        #expect(scenario.state.overlay == nil, "no question: the jobs keep running in the engine")
        #expect(scenario.state.quitPhase == nil)
    }

    @Test(arguments: [TerminationSignal.interrupt, .terminate, .hangup])
    func attachedSignalsDetachAtOnce(signal: TerminationSignal) {
        var scenario = busy(attached: true)
        let effects = scenario.state.handle(.signal(signal))
        #expect(Scenario.commands(effects) == [.quit(abortRunning: false)], "never an abort: \(effects)")
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.quitPhase == nil)
    }

    @Test func notAttachedDDoesNotQuit() {
        var scenario = busy(attached: false)
        #expect(Scenario.commands(scenario.press(.character("d"))).isEmpty)
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text == "d detaches an attached monitor (installtop attach); q quits")
        #expect(Scenario.commands(scenario.press(.character("q"))).isEmpty, "q asks first while jobs run")
        #expect(scenario.state.overlay == .confirm(.quit(count: 2)))
    }

    @Test func notAttachedSignalsStillAbortTheJobs() {
        var scenario = busy(attached: false)
        #expect(Scenario.commands(scenario.state.handle(.signal(.hangup))) == [.command(.abortAll(force: false))])
    }

    // MARK: - Footer and help

    @Test func theFooterNamesTheWayOut() {
        let attached = footer(busy(attached: true))
        #expect(attached.contains("d detach"), "\(attached)")
        #expect(!attached.contains("q quit"))
        let local = footer(busy(attached: false))
        #expect(local.contains("q quit"), "\(local)")
        #expect(!local.contains("detach"))
    }

    @Test func theHelpListsQAndDAsDetach() {
        var attached = busy(attached: true, height: 30)
        attached.press(.character("?"))
        #expect(attached.state.overlay == .help(scroll: 0))
        let screen = attached.screen()
        #expect(screen.contains("q  d"), "\(screen)")
        #expect(screen.contains("detach: the jobs keep running in the engine"))
        #expect(!screen.contains("quit (asks while jobs run"))
        // Detach replaces quit; an engine's monitor adds K (its armed runs).
        #expect(attached.state.keyHelp.count == MonitorState.keyHelp.count + 1)
        #expect(attached.state.keyHelp.contains { $0.keys == "K" } && !MonitorState.keyHelp.contains { $0.keys == "K" })
        #expect(Scenario.commands(attached.press(.character("q"))).isEmpty, "a key first closes the help")
        #expect(attached.state.overlay == nil)

        var local = busy(attached: false, height: 30)
        local.press(.character("?"))
        let localScreen = local.screen()
        #expect(!localScreen.contains("q  d"))
        #expect(localScreen.contains("quit (asks while jobs run: they would be aborted)"))
    }

    // MARK: - Connected again

    @Test("connected again: the queue shown is dropped for the snapshot that follows, the reason said until the next key, the selection kept on its job")
    func aReplacedQueueIsTheSnapshotsAlone() {
        var scenario = busy(attached: true)
        let selected = scenario.state.selectedJobID
        let effects = scenario.state.handle(.queueReplaced("connected again, the queue shown afresh: the engine closed this monitor's connection"))
        #expect(effects.contains(.redraw))
        #expect(scenario.state.queue.jobs.isEmpty, "nothing of the old queue stays to be doubled by the snapshot")
        #expect(scenario.state.status?.text.hasPrefix("connected again") == true)
        // The snapshot: the same two jobs, by their numbers, the first still running.
        for (id, name, titles) in [(1, "Security updates", ["OpenSSL", "libc6"]), (2, "Kernel", ["linux"])] {
            let updates = titles.enumerated().map { Update(id: "u\(id)-\($0.offset)", title: $0.element) }
            scenario.send(.jobQueued(JobDescriptor(id: id, name: name, operation: .install, updates: updates, stopOnFailure: false)))
        }
        scenario.startJob(1)
        scenario.startUpdate(1, 0)
        #expect(scenario.state.queue.jobs.map(\.descriptor.name) == ["Security updates", "Kernel"])
        #expect(scenario.state.selectedJobID == selected, "the selection stays on its job")
        // The operator comes back to a monitor that was stopped: the reason is still there.
        scenario.advance(600)
        #expect(scenario.state.status?.text.hasPrefix("connected again") == true, "the reason stays until a key")
        scenario.press(.down)
        #expect(scenario.state.status?.text.hasPrefix("connected again") != true, "a key takes it away")
    }
}
