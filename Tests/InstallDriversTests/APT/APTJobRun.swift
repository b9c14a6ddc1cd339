import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// One apt job planned by `APTPlanner` and run by `APTDriver` on a queue of its own, with every
/// event the queue published: what the driver tests start, steer (abort) and read.
struct APTJobRun {
    let plan: APTPlan
    let queue: JobQueue
    let id: Int
    let events = RecordedEvents()

    /// Plans `job` and submits it; it starts at once.
    init(_ job: PackageJob) throws {
        plan = try APTPlanner.plan(job)
        queue = JobQueue(backend: ProcessBackend())
        // Subscribed before the submit: a late subscriber gets a replay of the state, which
        // would lose the progress messages the tests look for.
        queue.subscribe { [events] in events.add($0) }
        id = try queue.submit(name: APTJobKind.summary(of: job.request), operation: job.request.operation, updates: plan.updates,
                              driver: APTDriver(plan: plan)).id
    }

    /// The index of `package`'s update in the job.
    func index(of package: String) throws -> Int {
        try #require(plan.updates.firstIndex { $0.id == package }, "\(package) is not in the plan")
    }

    /// The `progress` events of update `index`, in order.
    func progress(of index: Int) -> [UpdateProgress] {
        events.all.compactMap { event in
            guard case .progress(let report) = event.kind, report.index == index else { return nil }
            return report
        }
    }

    /// The status texts update `index` showed, in order.
    func messages(of index: Int) -> [String] {
        progress(of: index).compactMap(\.message)
    }

    /// The job's status texts (`UpdateProgress.jobMessage`), each change once, in order.
    func jobMessages() -> [String] {
        var said: [String] = []
        for event in events.all {
            guard case .progress(let report) = event.kind, let text = report.jobMessage, text != said.last else { continue }
            said.append(text)
        }
        return said
    }

    /// The output lines of update `index`, in order.
    func output(of index: Int) -> [String] {
        events.all.compactMap { event in
            guard case .output(let report) = event.kind, report.index == index else { return nil }
            return report.line
        }
    }

    /// The job as subscribers see it now.
    var state: JobState? { queue.snapshot().job(id) }

    /// Waits for the job to complete and returns its final state. A job still running after
    /// `timeout` is a failure: it is force-aborted so the test ends instead of hanging.
    func completion(timeout: Duration = .seconds(120)) async throws -> JobState {
        let done = await eventually(timeout: timeout) { state?.phase == .completed }
        if !done {
            Issue.record("the apt job did not complete within \(timeout)")
            try? queue.abort(job: id, force: true)
        }
        await queue.waitUntilIdle()
        return try #require(state)
    }
}
