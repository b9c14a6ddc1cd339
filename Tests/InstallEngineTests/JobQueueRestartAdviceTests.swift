import InstallEngine
import InstallEngineTesting
import RestartScan
import Synchronization
import Testing

/// Rule 32: a job that ran an update completes with the restart advice of the queue's advisor.
@Suite("JobQueue: restart advice in the result")
struct JobQueueRestartAdviceTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    /// A fixed answer, counting how often it was asked.
    final class FixedAdvisor: RestartAdvisor {
        let answer: RestartAdvice
        private let asked = Mutex(0)

        init(_ answer: RestartAdvice) { self.answer = answer }

        var count: Int { asked.withLock { $0 } }

        func advice() -> RestartAdvice {
            asked.withLock { $0 += 1 }
            return answer
        }
    }

    private let stale = RestartAdvice(
        processes: [StaleProcess(pid: 812, command: "nginx", uid: 0, user: "root", owner: .service(unit: "nginx.service"),
                                 files: [StaleFile(path: "/usr/lib/libssl.so.3", change: .deleted)])],
        rebootReasons: [.rebootRequiredFile(packages: ["libc6"])])

    @Test("the completed job's result and its jobCompleted event carry the advice")
    func carried() async throws {
        let advisor = FixedAdvisor(stale)
        let queue = JobQueue(backend: ScriptedBackend(defaultScript: UpdateScript()), configuration: configuration, restartAdvisor: advisor)
        let log = EventLog()
        queue.subscribe(log.handler)
        let job = try queue.submit(name: "one", updates: [update("a"), update("b")])
        await queue.waitUntilIdle()

        #expect(queue.snapshot().job(job.id)?.result?.restartAdvice == stale)
        let completed = log.kinds(ofJob: job.id).compactMap { kind -> InstallationResult? in
            if case .jobCompleted(let completion) = kind { return completion.result }
            return nil
        }
        #expect(completed.map(\.restartAdvice) == [stale])
        #expect(advisor.count == 1, "one scan per job, not per update")
    }

    @Test("a job that ends after the last scan started gets a scan of its own, never an older one")
    func freshScanForALaterJob() async throws {
        let advisor = FixedAdvisor(stale)
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, configuration: configuration, restartAdvisor: advisor)
        let first = try queue.submit(name: "first", updates: [update("a")])
        let second = try queue.submit(name: "second", updates: [update("b")])
        await backend.waitUntilStarted("a")
        backend.release("a")
        // The second job runs only once the first completed, so after the first scan began.
        await backend.waitUntilStarted("b")
        backend.release("b")
        await queue.waitUntilIdle()

        #expect(advisor.count == 2)
        #expect(queue.snapshot().job(first.id)?.result?.restartAdvice == stale)
        #expect(queue.snapshot().job(second.id)?.result?.restartAdvice == stale)
    }

    @Test("a job aborted before any update ran is not scanned")
    func notRan() async throws {
        let advisor = FixedAdvisor(stale)
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, configuration: configuration, restartAdvisor: advisor)
        try queue.submit(name: "running", updates: [update("a")])
        let waiting = try queue.submit(name: "waiting", updates: [update("b")])
        await backend.waitUntilStarted("a")
        try queue.abort(job: waiting.id)
        backend.release("a")
        await queue.waitUntilIdle()

        let snapshot = queue.snapshot()
        #expect(snapshot.job(waiting.id)?.result?.restartAdvice == nil)
        #expect(snapshot.job(1)?.result?.restartAdvice == stale)
        #expect(advisor.count == 1)
    }

    @Test("without an advisor there is no advice")
    func noAdvisor() async throws {
        let queue = JobQueue(backend: ScriptedBackend(defaultScript: UpdateScript()), configuration: configuration)
        let job = try queue.submit(name: "one", updates: [update("a")])
        await queue.waitUntilIdle()

        #expect(queue.snapshot().job(job.id)?.result != nil)
        #expect(queue.snapshot().job(job.id)?.result?.restartAdvice == nil)
    }
}
