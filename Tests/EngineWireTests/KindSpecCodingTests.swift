import EngineWire
import InstallEngine
import Testing

/// A kind writes and reads its submission member through the engine's JSON-agnostic
/// `KindSpecWriter` and `KindSpecReader`; EngineWire's JSON object and wire object are them, so
/// every kind of value a kind may send survives the wire, and a kind's own refusal reaches the
/// client as a bad argument in its words.
@Suite("KindSpecWriter and KindSpecReader: a kind's member on the wire")
struct KindSpecCodingTests {
    struct Spec: Sendable, Hashable {
        var name: String
        var count: Int
        var ratio: Double?
        var flag: Bool
        var items: [String]
        var environment: [String: String]
        var nestedNote: String
    }

    /// A kind of this test's own: every writer call, and a refusal of a negative count.
    struct EveryValueKind: JobKind {
        var key: String { "every" }
        var sectionKeys: [String] { [] }
        var sectionExpectation: String { "an object" }
        var updatesNote: String { "none" }
        var declaresJobs: Bool { false }
        func read(_ section: inout ManifestKindSection) -> Spec? { nil }
        func operation(of spec: Spec) -> UpdateOperation? { .install }
        func describe(_ spec: Spec) -> String { spec.name }
        func validationPhrase(count: Int) -> String { "\(count)" }
        func queuedLine(_ spec: Spec, name: String, job: Int?) -> String { name }
        func plan(_ spec: Spec) throws -> KindPlan { .job(updates: [], driver: nil, summary: "") }

        func encode<Writer: KindSpecWriter>(_ spec: Spec, into members: inout Writer) {
            members.add("name", spec.name)
            members.add("count", spec.count)
            if let ratio = spec.ratio { members.add("ratio", ratio) }
            members.add("flag", spec.flag)
            members.add("items", strings: spec.items)
            members.add("env", stringMap: spec.environment)
            members.addObject("nested") { nested in nested.add("note", spec.nestedNote) }
        }

        func decode<Reader: KindSpecReader>(_ members: Reader) throws(Reader.Failure) -> Spec {
            let count = try members.int("count")
            guard count >= 0 else { throw members.refusal("\(members.context): `count` must not be negative") }
            return Spec(name: try members.string("name"), count: count, ratio: try members.optionalDouble("ratio"),
                        flag: try members.bool("flag", default: false), items: try members.strings("items"),
                        environment: try members.stringMap("env"), nestedNote: try members.object("nested").string("note"))
        }
    }

    static let kinds = JobKinds([EveryValueKind()])

    private func submission(_ json: String) throws(WireError) -> JobSubmission {
        guard let members = try? JSONParser.parse(json).objectValue else { throw WireError(.badArgument, "not an object: \(json)") }
        return try JobSubmission(WireObject(members, context: "job"), kinds: Self.kinds)
    }

    @Test("every value a kind writes is read back the same", arguments: [
        Spec(name: "a \"quoted\" é", count: 3, ratio: 0.25, flag: true, items: ["x", "y z"], environment: ["K": "v", "E": ""], nestedNote: "n"),
        Spec(name: "", count: 0, ratio: nil, flag: false, items: [], environment: [:], nestedNote: ""),
    ])
    func roundTrip(spec: Spec) throws {
        let sent = JobSubmission(name: "job", operation: .install, updates: [], stopOnFailure: false,
                                 kind: JobKindSpec(kind: EveryValueKind(), spec: spec))
        let read = try submission(sent.json)
        #expect(read == sent, "\(sent.json)")
        #expect(read.kind?.spec(as: Spec.self) == spec)
    }

    @Test("the kind's refusal and the reader's type errors are bad arguments that name the member")
    func refusals() {
        let job = #"{"name":"j","operation":"install","updates":[],"every":"#
        for (member, named) in [(#"{"name":"n","count":-1,"nested":{"note":""}}"#, "job.every: `count` must not be negative"),
                                (#"{"name":"n","count":1,"env":{"K":1},"nested":{"note":""}}"#, "job.every: `env.K` must be a string"),
                                (#"{"name":"n","count":1,"env":[],"nested":{"note":""}}"#, "job.every: `env` must be an object of strings"),
                                (#"{"name":"n","count":1}"#, "job.every: `nested` must be an object")] {
            do {
                _ = try submission(job + member + "}")
                Issue.record("accepted: \(member)")
            } catch {
                #expect(error.code == .badArgument)
                #expect(error.message == named, "\(member)")
            }
        }
    }
}
