import InstallEngine
import Monitor
import Testing

@testable import MonitorRuntime

/// The grouped board's job numbers: each host's job 1 is a job of its own on the board, and a
/// command goes back to its host under the host's number.
@Suite("Board job numbers")
struct BoardJobNumbersTests {
    private func queued(_ id: Int) -> EngineEvent {
        EngineEvent(kind: .jobQueued(JobDescriptor(id: id, name: "Upgrade", operation: .install, updates: [], stopOnFailure: false)))
    }

    @Test("events are renumbered, the origin announced before a job's first event; commands route back to the host's number")
    func renumberAndRoute() {
        var numbers = BoardJobNumbers()
        let web1 = numbers.translate(queued(1), from: "web1")
        let web2 = numbers.translate(queued(1), from: "web2")
        guard case .monitor(.host(.jobOrigin(let first, let origin)))? = web1.first, case .engine(let event)? = web1.last else {
            Issue.record("\(web1)")
            return
        }
        #expect(first == 1 && origin == JobOrigin(host: "web1", job: 1) && event.job == 1)
        guard case .engine(let second)? = web2.last else {
            Issue.record("\(web2)")
            return
        }
        #expect(second.job == 2, "web2's job 1 is the board's job 2")
        let progress = numbers.translate(EngineEvent(kind: .jobStarted(job: 1)), from: "web2")
        #expect(progress.count == 1, "a known job is not announced again")
        guard case .engine(let started)? = progress.first else { return }
        #expect(started.job == 2)

        #expect(numbers.route(.abort(job: 2, force: true)) ?? ("", .abortAll(force: false)) == ("web2", .abort(job: 1, force: true)))
        #expect(numbers.route(.cleanUp(job: 1)) ?? ("", .abortAll(force: false)) == ("web1", .cleanUp(job: 1)))
        #expect(numbers.route(.confirm(job: 3)) == nil, "a number the board never gave")
        #expect(numbers.route(.abortAll(force: false)) == nil, "abort-all has no one host")
        #expect(numbers.number(for: JobOrigin(host: "web2", job: 1)) == (2, false), "kept when the host's queue comes afresh")
    }
}
