import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// A job that awaits confirmation (an apt plan): the monitor selects it, shows it as
/// "awaiting yes" and asks before it starts; y confirms it, n aborts it without running anything.
@Suite("Monitor: asking to start a job that awaits confirmation")
struct MonitorConfirmStartTests {
    private static let planName = "apt install jq · 2 to install · 1.2 MB to download"

    /// Queues a job that awaits confirmation; returns its number.
    @discardableResult
    private func queuePlan(_ scenario: inout Scenario, id: Int, name: String = planName, packages: [String] = ["jq", "libonig5"]) -> Int {
        let updates = packages.map { Update(id: $0, title: "\($0) 1.0") }
        scenario.send(.jobQueued(JobDescriptor(
            id: id, name: name, operation: .install, updates: updates, stopOnFailure: false, awaitsConfirmation: true, runByDriver: true)))
        return id
    }

    /// The jobs pane's row naming `text`: what lies between the pane's first two borders (the
    /// updates pane's title names the selected job too, on the border line).
    private func jobsPaneRow(_ scenario: Scenario, containing text: String) -> String? {
        scenario.render().lines.compactMap { line -> String? in
            let cells = line.split(separator: "│", omittingEmptySubsequences: false)
            return cells.count > 2 ? String(cells[1]) : nil
        }.first { $0.contains(text) }
    }

    @Test("job.queued of a job that awaits confirmation opens the start question and selects the job")
    func queuedAsks() {
        var scenario = Scenario()
        let other = scenario.queue("Tools", ["htop"])
        #expect(scenario.state.selectedJobID == other)
        let plan = queuePlan(&scenario, id: 2)
        #expect(scenario.state.overlay == .confirm(.startJob(job: plan, name: Self.planName, updates: 2)))
        #expect(scenario.state.selectedJobID == plan, "the plan's job is shown while the question is open")
    }

    @Test("A job that starts or completes closes its question (confirmed elsewhere, or replayed to a monitor attaching late)")
    func startedOrCompletedCloses() {
        var started = Scenario()
        let plan = queuePlan(&started, id: 1)
        started.send(.jobStarted(job: plan))
        #expect(started.state.overlay == nil)

        var completed = Scenario()
        let other = queuePlan(&completed, id: 1)
        completed.send(.jobCompleted(job: other, result: InstallationResult.combining(
            [UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled),
             UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled)], abortRequested: true)))
        #expect(completed.state.overlay == nil)
    }

    @Test("Once answered yes, a job waiting for a slot no longer shows awaiting yes")
    func confirmedWaitingShowsQueued() {
        var scenario = Scenario()
        let plan = queuePlan(&scenario, id: 1)
        _ = scenario.press(.character("y"))
        #expect(scenario.state.confirmedJobs.contains(plan))
        #expect(jobsPaneRow(scenario, containing: "apt install")?.contains("awaiting yes") == false)
    }

    @Test("An ordinary job.queued asks nothing")
    func ordinaryDoesNotAsk() {
        var scenario = Scenario()
        scenario.queue("Tools", ["htop"])
        #expect(scenario.state.overlay == nil)
    }

    @Test("y confirms the job and closes the question")
    func yesConfirms() {
        var scenario = Scenario()
        let plan = queuePlan(&scenario, id: 1)
        let effects = scenario.press(.character("y"))
        #expect(Scenario.commands(effects) == [.command(.confirm(job: plan))])
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text == "Starting \(Self.planName)")
    }

    @Test("n declines the job (nothing runs, nothing is recorded), closes the question, and quits when it was the only job", arguments: [
        Key.character("n"), .character("N"), .escape, .character("q"),
    ])
    func noDeclines(key: Key) {
        var scenario = Scenario()
        let plan = queuePlan(&scenario, id: 1)
        let effects = scenario.press(key)
        #expect(Scenario.commands(effects) == [.command(.decline(job: plan)), .quit(abortRunning: false)], "as apt-get ends at its n")
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text == "Not started: \(Self.planName) (its plan was declined)")
    }

    @Test("n with other jobs in the monitor declines the plan and stays")
    func noWithOtherJobsStays() {
        var scenario = Scenario()
        scenario.queue("Tools", ["htop"])
        let plan = queuePlan(&scenario, id: 2)
        let effects = scenario.press(.character("n"))
        #expect(Scenario.commands(effects) == [.command(.decline(job: plan))], "the other job is still to watch")
    }

    @Test("Other keys leave the question open and send nothing")
    func otherKeys() {
        var scenario = Scenario()
        let plan = queuePlan(&scenario, id: 1)
        #expect(Scenario.commands(scenario.press(.character("a"), .down, .enter, .character("x"))).isEmpty)
        #expect(scenario.state.overlay == .confirm(.startJob(job: plan, name: Self.planName, updates: 2)))
    }

    @Test("A second plan replaces an open question: the newest plan is asked about")
    func secondPlanReplaces() {
        var scenario = Scenario()
        queuePlan(&scenario, id: 1)
        let second = queuePlan(&scenario, id: 2, name: "apt remove telnet", packages: ["telnet"])
        #expect(scenario.state.overlay == .confirm(.startJob(job: second, name: "apt remove telnet", updates: 1)))
        #expect(scenario.state.selectedJobID == second)
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.confirm(job: second))])
    }

    @Test("The jobs pane shows the job as awaiting yes, and the dialog asks the question")
    func rendersAwaitingAndQuestion() {
        var scenario = Scenario(width: 100, height: 30)
        scenario.queue("Tools", ["htop"])
        queuePlan(&scenario, id: 2, name: "apt install jq", packages: ["jq", "libonig5"])
        let screen = scenario.screen()
        let row = jobsPaneRow(scenario, containing: "apt install jq")
        #expect(row?.contains("awaiting yes") == true, "\n\(screen)")
        #expect(jobsPaneRow(scenario, containing: "Tools")?.contains("awaiting yes") == false, "an ordinary queued job is not")
        #expect(screen.contains("Start apt install jq?"))
        #expect(screen.contains("y runs the 2 updates planned; n runs nothing."))
    }

    @Test("One planned update is said in the singular")
    func singular() {
        var scenario = Scenario(width: 100, height: 30)
        queuePlan(&scenario, id: 1, name: "apt remove telnet", packages: ["telnet"])
        #expect(scenario.screen().contains("y runs the 1 update planned; n runs nothing."))
    }

    @Test("Once confirmed and started, the row shows its progress, not awaiting yes")
    func startedRowShowsProgress() {
        var scenario = Scenario(width: 100, height: 30)
        let plan = queuePlan(&scenario, id: 1, name: "apt install jq")
        scenario.press(.character("y"))
        scenario.startJob(plan)
        #expect(jobsPaneRow(scenario, containing: "apt install jq")?.contains("awaiting yes") == false)
        #expect(!scenario.screen().contains("Start apt install jq?"))
    }
}
