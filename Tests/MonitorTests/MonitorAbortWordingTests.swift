import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The abort question says what an abort really does to the job's kind (rules 11, 24, 29): apt
/// finishes the running package before it stops, a job of commands has its running update
/// stopped, a watched job cannot be stopped at all.
@Suite("Monitor: what the abort question says, by kind")
struct MonitorAbortWordingTests {
    private static let initiator = ObservedInitiator(
        pid: 4242, startTicks: 1, program: "apt-get", commandLine: ["apt-get", "install", "nginx"], uid: 0, user: "root", terminal: "pts/1")

    /// What apt's driver says of its stop (`APTDriver.stopNote`), as its job's descriptor carries it.
    static let aptNote = JobStopNote(
        sentence: "apt finishes the running package (unpack and configure), then stops; no other package starts.",
        short: "apt finishes its running package first.")

    /// Queues and starts a job of one update as `descriptor` says (number `id`, named `name`).
    private func start(_ scenario: inout Scenario, id: Int, name: String, runByDriver: Bool = false, observedBy: ObservedInitiator? = nil,
                       stopNote: JobStopNote? = nil) {
        scenario.send(.jobQueued(JobDescriptor(
            id: id, name: name, operation: .install, updates: [Update(id: "u\(id)", title: "lab-base 1.0")], stopOnFailure: false,
            runByDriver: runByDriver, observedBy: observedBy, stopNote: stopNote)))
        scenario.send(.jobStarted(job: id))
        scenario.send(.updateStarted(job: id, index: 0, updateID: "u\(id)"))
    }

    @Test("An apt job: the running package is finished, then apt stops; nothing says the update is stopped")
    func aptFinishesThePackage() {
        var scenario = Scenario(width: 80, height: 24)
        start(&scenario, id: 100, name: "apt install lab-base", runByDriver: true, stopNote: Self.aptNote)
        scenario.press(.character("a"))
        let screen = scenario.screen()
        #expect(screen.contains("Abort apt install lab-base?"), "\(screen)")
        #expect(screen.contains("apt finishes the running package"), "\(screen)")
        #expect(screen.contains("then stops; no other package") && screen.contains("starts."), "wrapped whole in the box:\n\(screen)")
        #expect(!screen.contains("is stopped"), "\(screen)")
        #expect(screen.contains("y yes    n no"))
    }

    @Test("The apt sentence wraps inside the box at 40 columns, keys last")
    func aptWrapsAt40Columns() throws {
        var scenario = Scenario(width: 40, height: 12)
        start(&scenario, id: 100, name: "apt install lab-base", runByDriver: true, stopNote: Self.aptNote)
        scenario.press(.character("a"))
        let lines = scenario.render().lines
        let text = lines.joined(separator: "\n")
        #expect(text.contains("apt finishes the running") && text.contains("y yes    n no"), "\(text)")
        #expect(!lines.contains { $0.hasPrefix("│") && $0.contains("…") }, "nothing in the box cut:\n\(text)")
    }

    @Test("A watched job: a says why at once and asks nothing; A leaves it out and says it goes on")
    func watchedJobCannotBeAborted() {
        var scenario = Scenario(width: 100, height: 30)
        start(&scenario, id: 100, name: "apt-get install nginx — root on pts/1", runByDriver: true, observedBy: Self.initiator)
        let effects = scenario.press(.character("a"))
        #expect(Scenario.commands(effects).isEmpty)
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text.contains("run by apt-get (pid 4242)") == true, "\(String(describing: scenario.state.status))")
        #expect(scenario.state.status?.text.contains("only watches it and cannot stop it") == true)

        scenario.press(.character("A"))
        #expect(scenario.state.overlay == nil, "nothing to abort")
        #expect(scenario.state.status?.text.contains("only watches") == true)

        let tools = scenario.queue("Tools", ["jq"])
        scenario.startJob(tools)
        scenario.startUpdate(tools, 0)
        scenario.press(.character("A"))
        #expect(scenario.state.overlay == .confirm(.abortAll(count: 1)))
        let screen = scenario.screen()
        #expect(screen.contains("Abort the 1 unfinished job?") && screen.contains("Running updates are stopped."), "\(screen)")
        #expect(screen.contains("1 watched job goes on"), "\(screen)")
    }

    @Test("A of an apt job and a job of commands says what happens to each")
    func abortAllMixed() {
        var scenario = Scenario(width: 100, height: 30)
        start(&scenario, id: 100, name: "apt install lab-base", runByDriver: true, stopNote: Self.aptNote)
        let tools = scenario.queue("Tools", ["jq"])
        scenario.startJob(tools)
        scenario.startUpdate(tools, 0)
        scenario.press(.character("A"))
        let screen = scenario.screen()
        #expect(screen.contains("Abort all 2 unfinished jobs?"), "\(screen)")
        #expect(screen.contains("Running updates are stopped.") && screen.contains("apt finishes its running package first."), "\(screen)")
    }

    @Test("A driver's job says its own kind's stop; one whose driver says nothing is not taken for apt's")
    func eachKindSaysItsOwnStop() {
        var scenario = Scenario(width: 100, height: 30)
        let dnf = JobStopNote(sentence: "rpm's transaction runs to its end (it defers signals), then dnf stops.",
                              short: "dnf lets rpm's transaction end first.")
        start(&scenario, id: 100, name: "dnf upgrade", runByDriver: true, stopNote: dnf)
        scenario.press(.character("a"))
        var screen = scenario.screen()
        #expect(screen.contains("rpm's transaction runs to its end") && !screen.contains("apt"), "\(screen)")
        scenario.press(.character("n"))

        start(&scenario, id: 101, name: "drive lab", runByDriver: true)
        start(&scenario, id: 102, name: "apt install lab-base", runByDriver: true, stopNote: Self.aptNote)
        scenario.press(.character("A"))
        screen = scenario.screen()
        // The box's lines as one text: a sentence may wrap.
        let box = screen.split(separator: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "│", omittingEmptySubsequences: false)
            return cells.count > 3 ? cells[cells.count - 3].trimmingCharacters(in: .whitespaces) : nil
        }.filter { !$0.isEmpty }.joined(separator: " ")
        #expect(box.contains("dnf lets rpm's transaction end first.") && box.contains("apt finishes its running package first."), "\(box)\n\(screen)")
        #expect(box.contains("Other drivers finish their running update first."), "\(box)\n\(screen)")
    }

    @Test("A second a on a dnf job says the kind's forcing words whole on the footer at 120 columns")
    func forcingFitsTheFooter() {
        var scenario = Scenario(width: 120, height: 30)
        // `DNFDriver.stopNote`'s words (InstallDriversTests checks they stay this short).
        let dnf = JobStopNote(sentence: "Before rpm's transaction dnf stops at once and nothing is installed; once rpm runs, the stop waits for its end.",
                              short: "Once rpm runs, the stop waits for its end.",
                              forcing: "killed before rpm runs, refused while it runs")
        start(&scenario, id: 100, name: "dnf install lab-print lab-slow · 2 to install", runByDriver: true, stopNote: dnf)
        scenario.press(.character("a"))
        scenario.press(.character("y"))
        scenario.send(.jobAbortRequested(job: 100, force: false))
        scenario.press(.character("a"))
        let footer = scenario.render().lines.last ?? ""
        #expect(footer.contains("Forcing the abort of dnf install lab-print lab-slow · 2 to install: killed before rpm runs, refused while it runs"),
                "\(footer)")
    }
}
