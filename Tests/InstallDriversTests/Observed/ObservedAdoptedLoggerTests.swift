import EngineWire
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Testing

/// dpkg never waits for its status logger: a short dpkg run (apt configures libpam-modules-bin,
/// Essential, in a run of its own) can exit before its logger's relay, slow to start on a loaded
/// machine, walks `/proc` up from itself. The logger's shell is then adopted by a subreaper
/// above apt (the `installtop apt revert` process that runs apt-get, `systemd --user`), which
/// the relay takes for the initiator and says so (`dpkgGone`). Those lines are apt's
/// transaction's: before, they made a second job, "(plan partial: from dpkg's lines)", named
/// like apt's (installtop's mark is in the environment) and ended only with the adopter.
@Suite("Observed transactions: status lines of a dpkg that exited before its relay looked")
struct ObservedAdoptedLoggerTests {
    /// The order in which the engine gets the relay's messages of one transaction: each relay
    /// is a process and a connection of its own.
    enum Order: String, CaseIterable, CustomTestStringConvertible {
        /// As apt runs them: the late logger's lines come while apt still runs.
        case duringTransaction
        /// The late logger's lines before the plan (the plan's relay slower still).
        case beforePlan
        /// After apt's Post-Invoke: late lines of its last dpkg run.
        case afterEnd
        /// Before anything else of the transaction: nothing to give them to.
        case first

        var testDescription: String { rawValue }
    }

    private static let plan = [
        "CommandLine::AsString=apt-get install -y lab-a lab-b",
        "lab-a - - none < 1.0 all none /var/cache/apt/archives/lab-a_1.0_all.deb",
        "lab-b - - none < 1.0 all none /var/cache/apt/archives/lab-b_1.0_all.deb",
    ]
    private static let aptsDpkgLines = [
        "processing: install: lab-a", "status: lab-a: half-installed", "status: lab-a: unpacked",
        "processing: configure: lab-a", "status: lab-a: half-configured", "status: lab-a: installed",
    ]
    /// The lines of the short dpkg run whose relay found its dpkg gone.
    private static let adoptedLines = [
        "processing: configure: lab-b", "status: lab-b: unpacked", "status: lab-b: half-configured", "status: lab-b: installed",
    ]

    @Test("the lines a subreaper above apt adopted go to apt's job or nowhere, in whatever order they come: one transaction, one job",
          arguments: Order.allCases)
    func adoptedLinesMakeNoSecondJob(order: Order) async throws {
        let transaction = try ObservedTestTransaction(name: "observed-adopted")
        let (apt, queue, observed) = (transaction.initiator, transaction.queue, transaction.observed)
        // This test process stands for apt-get; its parent for the process above it that
        // adopted the logger's shell: alive, not apt, and not this engine's child.
        let adopter = try #require(LockHolder(pid: getppid())).initiator
        let adopted = ObservedReport(event: .status, initiator: adopter, dpkgGone: true, lines: Self.adoptedLines)

        if order == .first { observed.receive(adopted) }
        observed.receive(ObservedReport(event: .begin, initiator: apt, lines: []))
        if order == .beforePlan { observed.receive(adopted) }
        observed.receive(ObservedReport(event: .plan, initiator: apt, lines: Self.plan))
        observed.receive(ObservedReport(event: .status, initiator: apt, dpkg: getpid(), lines: Self.aptsDpkgLines))
        if order == .duringTransaction { observed.receive(adopted) }
        observed.receive(ObservedReport(event: .end, initiator: apt, lines: []))
        if order == .afterEnd { observed.receive(adopted) }

        // Not waitUntilIdle: a job of the adopter would not end while it runs.
        queue.waitUntilDelivered()
        let jobs = queue.snapshot().jobs
        #expect(jobs.count == 1, "\(jobs.map(\.descriptor.name))")
        #expect(jobs.allSatisfy { $0.descriptor.observedBy?.pid == apt.pid }, "\(jobs.map { $0.descriptor.observedBy?.program ?? "" })")
        guard jobs.count == 1 else { return }
        await queue.waitUntilIdle()
    }

    @Test("apt's job shows the phases of the adopted lines while apt runs")
    func adoptedLinesShowOnAptsJob() async throws {
        let transaction = try ObservedTestTransaction(name: "observed-adopted-phases")
        let (apt, queue, observed) = (transaction.initiator, transaction.queue, transaction.observed)
        let adopter = try #require(LockHolder(pid: getppid())).initiator

        observed.receive(ObservedReport(event: .begin, initiator: apt, lines: []))
        observed.receive(ObservedReport(event: .plan, initiator: apt, lines: Self.plan))
        observed.receive(ObservedReport(event: .status, initiator: adopter, dpkgGone: true, lines: Self.adoptedLines))
        // Looked at again after every wait, the last time past the deadline too: in a loaded
        // full run the test pool may give this task its thread back only minutes later.
        let deadline = ContinuousClock.now + .seconds(120)
        var shown: UpdateState?
        while true {
            queue.waitUntilDelivered()
            let aptsJob = queue.snapshot().jobs.first { $0.descriptor.observedBy?.pid == apt.pid }
            shown = aptsJob?.updates.first { $0.update.id == "lab-b" }
            if shown?.percent == 100 || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(shown?.percent == 100, "lab-b: \(String(describing: shown?.message))")
        let jobs = queue.snapshot().jobs
        #expect(jobs.count == 1, "\(jobs.map(\.descriptor.name))")
        // Not waitUntilIdle: a job of the adopter would not end while it runs.
        guard jobs.count == 1 else { return }
        observed.receive(ObservedReport(event: .end, initiator: apt, lines: []))
        await queue.waitUntilIdle()
        #expect(queue.snapshot().jobs.count == 1)
    }
}
