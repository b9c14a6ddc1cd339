import Dispatch
import EngineDaemon
import EngineWire
import InstallEngine
import InstallEngineTesting
import Testing

@Suite("EngineServer: planning a package job holds up no other client")
struct EngineServerPlanningTests {
    /// A job kind (`apt`, as apt's package jobs are) that plans one update, but only once the
    /// test lets it.
    final class HeldPlanner: JobKind {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        var key: String { "apt" }
        var sectionKeys: [String] { ["install"] }
        var sectionExpectation: String { "an apt request" }
        var updatesNote: String { "apt plans them" }
        var declaresJobs: Bool { false }
        func read(_ section: inout ManifestKindSection) -> [String]? { section.strings("install") }
        func operation(of spec: [String]) -> UpdateOperation? { .install }
        func describe(_ spec: [String]) -> String { "apt install " + spec.joined(separator: " ") }
        func validationPhrase(count: Int) -> String { "\(count) apt transactions" }
        func queuedLine(_ spec: [String], name: String, job: Int?) -> String { name }
        func encode<Writer: KindSpecWriter>(_ spec: [String], into object: inout Writer) { object.add("install", strings: spec) }
        func decode<Reader: KindSpecReader>(_ object: Reader) throws(Reader.Failure) -> [String] { try object.strings("install") }

        func plan(_ spec: [String]) throws -> KindPlan {
            started.signal()
            release.wait()
            return .job(updates: [update("lab-app")], driver: ScriptedDriver(), summary: "1 to install")
        }
    }

    @Test func othersAreAnsweredWhileAPlanIsMadeAndTheSubmitterGetsItsReplyAfter() throws {
        let planner = HeldPlanner()
        let engine = try TestEngine(kinds: JobKinds([planner]))
        defer { engine.stop() }
        // Let a held plan go before stopping, even when an expectation failed on the way.
        defer { planner.release.signal() }
        let submitter = try engine.connect()
        let apt = JobSubmission(name: "apt", operation: .install, updates: [], stopOnFailure: false,
                                kind: JobKindSpec(kind: planner, spec: ["lab-app"]))
        let requestID = try submitter.send(.submit([apt]))
        #expect(planner.started.wait(timeout: .now() + 10) == .success, "the plan was asked for")

        // The loop answers another client while apt would still be simulating.
        let other = try engine.connect()
        do {
            try other.request(.history(limit: 5), timeout: .seconds(10))
            Issue.record("the history is off in this engine: expected a refusal")
        } catch {
            guard case .refused(let reason) = error else {
                Issue.record("no answer while the plan was being made: \(error)")
                return
            }
            #expect(reason.code == .historyUnavailable)
        }
        #expect(engine.queue.snapshot().jobs.isEmpty, "nothing is queued before the plan is made")

        planner.release.signal()
        var reply: WireReply?
        while reply == nil, let message = try submitter.nextMessage(timeout: .seconds(10)) {
            if case .reply(let answer) = message, answer.requestID == requestID { reply = answer }
        }
        #expect(reply?.error == nil)
        #expect(reply?.fields["jobs"] == .array([.integer(1)]))
        #expect(engine.queue.snapshot().jobs.first?.descriptor.name == "apt · 1 to install")
    }
}
