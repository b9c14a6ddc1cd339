import EngineDaemon
import EngineWire
import Glibc
import InstallEngine
import InstallEngineTesting
import Testing

@Suite("EngineServer: package jobs wait for a yes; about says who the engine is")
struct EngineServerReviewTests {
    /// A kind whose plans are reviewed, as apt's are: one update, planned at once.
    struct ReviewedKind: JobKind {
        var key: String { "apt" }
        var sectionKeys: [String] { ["install"] }
        var sectionExpectation: String { "an apt request" }
        var updatesNote: String { "apt plans them" }
        var declaresJobs: Bool { false }
        var asksBeforeRunning: Bool { true }
        func read(_ section: inout ManifestKindSection) -> [String]? { section.strings("install") }
        func operation(of spec: [String]) -> UpdateOperation? { .install }
        func describe(_ spec: [String]) -> String { "apt install " + spec.joined(separator: " ") }
        func validationPhrase(count: Int) -> String { "\(count) apt transactions" }
        func queuedLine(_ spec: [String], name: String, job: Int?) -> String { name }
        func encode<Writer: KindSpecWriter>(_ spec: [String], into object: inout Writer) { object.add("install", strings: spec) }
        func decode<Reader: KindSpecReader>(_ object: Reader) throws(Reader.Failure) -> [String] { try object.strings("install") }
        func plan(_ spec: [String]) throws -> KindPlan {
            .job(updates: spec.map(update), driver: ScriptedDriver(), summary: "\(spec.count) to install")
        }
    }

    private static func submission(_ packages: [String], yes: Bool) -> JobSubmission {
        JobSubmission(name: "Patch", operation: .install, updates: [], stopOnFailure: false,
                      kind: JobKindSpec(kind: ReviewedKind(), spec: packages), yes: yes)
    }

    @Test("a reviewed kind's job submitted without yes awaits a confirm and starts after it; with yes it starts at once")
    func reviewedJobsAwaitAYes() async throws {
        let engine = try TestEngine(kinds: JobKinds([ReviewedKind()]))
        defer { engine.stop() }
        let client = try engine.connect()
        defer { client.close() }
        let phase = { (job: Int) in engine.queue.snapshot().jobs.first { $0.id == job }?.phase }

        let waiting = try #require(try client.request(.submit([Self.submission(["a"], yes: false)])).fields["jobs"]?.arrayValue?.first?.intValue)
        #expect(engine.queue.snapshot().jobs.first { $0.id == waiting }?.descriptor.awaitsConfirmation == true)
        #expect(engine.log.all.contains { $0.contains("submitted job \(waiting)") && $0.contains("awaiting confirmation") }, "\(engine.log.all)")
        // With a free installer it would have started by now: the queue's events are delivered.
        engine.queue.waitUntilDelivered()
        #expect(phase(waiting) == .queued, "held until the confirm")
        try client.request(.job(.confirm(job: waiting)))
        #expect(await poll { phase(waiting) == .running }, "started once confirmed")
        try engine.queue.abort(job: waiting, force: true)
        await engine.queue.waitUntilIdle()

        let started = try #require(try client.request(.submit([Self.submission(["b"], yes: true)])).fields["jobs"]?.arrayValue?.first?.intValue)
        #expect(engine.queue.snapshot().jobs.first { $0.id == started }?.descriptor.awaitsConfirmation == false)
        #expect(await poll { phase(started) == .running }, "started without a confirm")
        try engine.queue.abort(job: started, force: true)
        await engine.queue.waitUntilIdle()
    }

    @Test("a job confirmed while another runs waits queued, no longer awaiting: its descriptor says so in the engine and in what a client is sent")
    func confirmedWhileAnotherRuns() async throws {
        let engine = try TestEngine(kinds: JobKinds([ReviewedKind()]))
        defer { engine.stop() }
        let client = try engine.connect()
        defer { client.close() }
        let phase = { (job: Int) in engine.queue.snapshot().jobs.first { $0.id == job }?.phase }

        let subscriber = try engine.subscriber()
        defer { subscriber.close() }
        let first = try #require(try client.request(.submit([Self.submission(["a"], yes: true)])).fields["jobs"]?.arrayValue?.first?.intValue)
        #expect(await poll { phase(first) == .running })
        let second = try #require(try client.request(.submit([Self.submission(["b"], yes: false)])).fields["jobs"]?.arrayValue?.first?.intValue)
        try client.request(.job(.confirm(job: second)))
        engine.queue.waitUntilDelivered()
        #expect(phase(second) == .queued, "the first one still runs")
        #expect(engine.queue.snapshot().jobs.first { $0.id == second }?.descriptor.awaitsConfirmation == false)
        #expect(await poll {
            subscriber.messages.contains { if case .event(let event) = $0, event.kind == .jobConfirmed(job: second) { true } else { false } }
        }, "a watcher is told")
        // One who attaches now is sent the job as it is: queued, asking nothing.
        let late = try engine.subscriber()
        defer { late.close() }
        #expect(await poll { late.messages.contains(.snapshotEnd) })
        let queued = late.messages.compactMap { message -> JobDescriptor? in
            if case .event(let event) = message, case .jobQueued(let descriptor) = event.kind, descriptor.id == second { return descriptor }
            return nil
        }
        #expect(queued.count == 1 && queued.first?.awaitsConfirmation == false, "\(queued)")
        try engine.queue.abort(job: first, force: true)
        try engine.queue.abort(job: second, force: true)
        await engine.queue.waitUntilIdle()
    }

    /// Polls `condition` until it holds, for at most 60 s.
    private func poll(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("a declined job leaves without running anything")
    func declinedJobsRunNothing() async throws {
        let engine = try TestEngine(kinds: JobKinds([ReviewedKind()]))
        defer { engine.stop() }
        let client = try engine.connect()
        defer { client.close() }
        let job = try #require(try client.request(.submit([Self.submission(["a"], yes: false)])).fields["jobs"]?.arrayValue?.first?.intValue)
        try client.request(.job(.decline(job: job)))
        await engine.queue.waitUntilIdle()
        #expect(engine.queue.snapshot().jobs.isEmpty, "declined, it left the queue without running")
    }

    @Test("about answers the engine's pid, uid, history and apt root; watchers may ask it")
    func aboutSaysWhoTheEngineIs() throws {
        let identity = EngineIdentity(history: "/var/lib/installtop/history.sqlite3", aptConfig: "/srv/root/apt.conf")
        let engine = try TestEngine(identity: identity)
        defer { engine.stop() }
        let client = try engine.connect()
        defer { client.close() }
        let answered = try EngineIdentity(reply: try client.request(.about))
        #expect(answered == identity && answered.pid == getpid() && answered.uid == geteuid())
        #expect(!WireCommand.about.acts)
        #expect(try WireCommand(JSONMembers(["command": .string("about")])) == .about)
    }

    @Test("paths are compared absolute, without . and ..")
    func absolutePaths() {
        #expect(EngineIdentity.absolute("/a/./b/../c") == "/a/c")
        #expect(EngineIdentity.absolute("x.conf").hasSuffix("/x.conf") && EngineIdentity.absolute("x.conf").hasPrefix("/"))
    }
}
