import EngineWire
import Foundation
import InstallEngine
import Testing

@Suite("EventCoding: every event both ways, and the JSON contract's names")
struct EventCodingTests {
    /// Whole milliseconds, computed like the RFC 3339 reader does, so decoded times compare equal.
    /// Tests use eighths of a second: other milliseconds are exposed to the truncation bug that
    /// `RFC3339Tests` shows, which is not what these tests are about.
    static func time(_ milliseconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(1_800_000_000 + milliseconds / 1000) + Double(milliseconds % 1000) / 1000)
    }

    static let descriptor = JobDescriptor(
        id: 7, name: "Security \"updates\" ✓", operation: .uninstall,
        updates: [
            Update(
                id: "openssl", revision: 3, title: "OpenSSL 3.0.15", rebootBehavior: .may, impact: .exclusive,
                progressSource: .output, sizeInBytes: 5_000_000_000, severity: "Critical"),
            Update(id: "zlib", rebootBehavior: .always, impact: .minor, progressSource: .none),
            Update(id: "tzdata"),
        ],
        stopOnFailure: true)

    /// One event of every kind, with optional parts both present and absent.
    static let events: [EngineEvent] = [
        EngineEvent(time: time(0), kind: .jobQueued(descriptor)),
        EngineEvent(time: time(1_000), kind: .jobStarted(job: 7)),
        EngineEvent(time: time(2_000), kind: .updateStarted(job: 7, index: 0, updateID: "openssl")),
        EngineEvent(time: time(2_500), kind: .progress(job: 7, index: 0, updatePercent: 42.5, jobPercent: 14.17, message: "Unpacking é\n")),
        EngineEvent(time: time(2_625), kind: .progress(job: 7, index: 0, updatePercent: nil, jobPercent: 0, message: nil)),
        EngineEvent(time: time(2_750), kind: .output(job: 7, index: 0, stream: .stdout, line: "plain \u{1B}[1m \"quoted\" \\ 😀")),
        EngineEvent(time: time(3_000), kind: .output(job: 7, index: 0, stream: .stderr, line: "")),
        EngineEvent(time: time(3_250), kind: .updateCompleted(job: 7, index: 0, updateID: "openssl", result: UpdateInstallationResult(
            resultCode: .failed, hResult: .installerFailure, rebootRequired: false, unmappedResultCode: 137,
            reason: "killed by signal 9", reportedErrors: ["disk full", "second"], startedAt: time(2_000), endedAt: time(3_250)))),
        EngineEvent(time: time(3_375), kind: .updateCompleted(job: 7, index: 1, updateID: "zlib", result: UpdateInstallationResult(
            resultCode: .succeeded, rebootRequired: true, startedAt: time(3_000), endedAt: time(3_375)))),
        EngineEvent(time: time(3_500), kind: .jobAbortRequested(job: 7, force: false)),
        EngineEvent(time: time(3_625), kind: .jobAbortRequested(job: 7, force: true)),
        EngineEvent(time: time(3_750), kind: .updateCompleted(job: 7, index: 2, updateID: "tzdata", result: UpdateInstallationResult(
            resultCode: .aborted, hResult: .callCancelled, reason: "not started", endedAt: time(3_750)))),
        EngineEvent(time: time(3_875), kind: .jobCompleted(job: 7, result: InstallationResult(
            resultCode: .aborted, hResult: .ok, rebootRequired: true, updateResults: []))),
        EngineEvent(time: time(4_000), kind: .jobCleanedUp(job: 7)),
        // Last, so that the indexes above stay those the tests use.
        EngineEvent(time: time(4_125), kind: .jobConfirmed(job: 8)),
    ]

    /// Encodes, parses and decodes one event.
    static func roundTrip(_ event: EngineEvent) throws -> EngineEvent? {
        let object = try #require(try JSONParser.parse(EventCoding.encode(event)).objectValue)
        let name = try #require(object["event"]?.stringValue)
        return try EventCoding.decode(name: name, object)
    }

    static func members(_ event: EngineEvent) throws -> JSONMembers {
        try #require(try JSONParser.parse(EventCoding.encode(event)).objectValue)
    }

    // MARK: - Both ways

    @Test(arguments: EventCodingTests.events)
    func everyKindRoundTrips(event: EngineEvent) throws {
        #expect(try Self.roundTrip(event) == event, "\(EventCoding.encode(event))")
    }

    @Test func jobCompletedComesBackWithoutUpdateResults() throws {
        let results = [UpdateInstallationResult(resultCode: .succeeded), UpdateInstallationResult(resultCode: .failed)]
        let event = EngineEvent(time: Self.time(5_125), kind: .jobCompleted(
            job: 2, result: InstallationResult.combining(results, abortRequested: false)))
        let decoded = try Self.roundTrip(event)
        #expect(decoded == EngineEvent(time: Self.time(5_125), kind: .jobCompleted(job: 2, result: InstallationResult(
            resultCode: .succeededWithErrors, hResult: .ok, rebootRequired: false, updateResults: []))))
    }

    @Test func updateCompletedWithoutAStartTimeHasNoStartOrDuration() throws {
        let event = EngineEvent(time: Self.time(9_250), kind: .updateCompleted(
            job: 1, index: 0, updateID: "a", result: UpdateInstallationResult(resultCode: .aborted, startedAt: nil, endedAt: nil)))
        let decoded = try #require(try Self.roundTrip(event))
        guard case .updateCompleted(let completion) = decoded.kind else {
            Issue.record("decoded as \(decoded.kind)")
            return
        }
        let result = completion.result
        #expect(result.startedAt == nil)
        #expect(result.endedAt == Self.time(9_250), "the event's time is the end")
        #expect(result.duration == nil)
        #expect(try Self.members(event)["durationMs"] == .integer(0))
    }

    @Test("a result's mark goes out as `mark` (and `skipped` for a skipped one) and comes back; an older writer's `skipped` alone reads as the skipped mark")
    func markRoundTrips() throws {
        for mark in UpdateResultMark.allCases {
            var result = UpdateInstallationResult(resultCode: .succeeded, reason: "exit status 1")
            result.mark = mark
            let event = EngineEvent(time: Self.time(9_250), kind: .updateCompleted(job: 1, index: 0, updateID: "a", result: result))
            let members = try Self.members(event)
            #expect(members["mark"] == .string(mark.rawValue))
            #expect(members["skipped"] == (mark == .skipped ? .bool(true) : nil))
            guard case .updateCompleted(let completion)? = try Self.roundTrip(event)?.kind else {
                Issue.record("\(mark) did not decode as a completion")
                continue
            }
            #expect(completion.result.mark == mark)
        }
        let older = #"{"event":"update.completed","job":1,"index":0,"id":"a","resultCode":2,"result":"succeeded","hResult":"0x00000000","skipped":true,"time":"2027-01-15T08:00:03.250Z"}"#
        let object = try #require(try JSONParser.parse(older).objectValue)
        guard case .updateCompleted(let completion)? = try EventCoding.decode(name: "update.completed", object)?.kind else {
            Issue.record("the older line did not decode as a completion")
            return
        }
        #expect(completion.result.mark == .skipped)
    }

    @Test func theContractsFieldsCarryTheEnginesValues() throws {
        let completed = try Self.members(Self.events[7])
        #expect(completed["durationMs"] == .integer(1_250))
        #expect(completed["resultCode"] == .integer(4))
        #expect(completed["result"] == .string("failed"))
        #expect(completed["hResult"] == .string("0x8024200B"))
        #expect(completed["unmappedResultCode"] == .integer(137))
        #expect(completed["time"] == .string("2027-01-15T08:00:03.250Z"))
        let progress = try Self.members(Self.events[3])
        #expect(progress["updatePercent"] == .double(42.5))
        #expect(progress["jobPercent"] == .double(14.17))
        let indeterminate = try Self.members(Self.events[4])
        #expect(indeterminate["updatePercent"] == .null && indeterminate["message"] == .null)
        let queued = try Self.members(Self.events[0])
        #expect(queued["operation"] == .string("uninstall"))
        let first = try #require(queued["updates"]?.arrayValue?.first)
        #expect(first["size"] == .integer(5_000_000_000))
        #expect(first["reboot"] == .string("may") && first["impact"] == .string("exclusive") && first["progress"] == .string("output"))
    }

    @Test("A job's status text is `jobMessage` on progress, only while the job has one, and comes back")
    func jobMessageBothWays() throws {
        let said = EngineEvent(time: Self.time(5_000), kind: .progress(
            job: 7, index: 0, updatePercent: nil, jobPercent: 0, message: nil, jobMessage: "downloading 2 of 50 · 1.2 of 80.2 MB"))
        #expect(try Self.members(said)["jobMessage"] == .string("downloading 2 of 50 · 1.2 of 80.2 MB"))
        #expect(try Self.roundTrip(said) == said)
        let none = EngineEvent(time: Self.time(5_125), kind: .progress(job: 7, index: 0, updatePercent: 10, jobPercent: 5, message: nil))
        #expect(try Self.members(none)["jobMessage"] == nil, "written as before when the job has none")
        #expect(try Self.roundTrip(none) == none)
    }

    @Test("An observed job's dropped lines go out as `droppedLines` on job.completed, only when there are some, and come back")
    func droppedLinesBothWays() throws {
        var result = InstallationResult(resultCode: .succeeded, hResult: .ok, rebootRequired: false, updateResults: [])
        result.droppedLines = 5
        let dropped = EngineEvent(time: Self.time(5_000), kind: .jobCompleted(job: 3, result: result))
        #expect(try Self.members(dropped)["droppedLines"] == .integer(5))
        #expect(try Self.members(dropped)["ignoredLines"] == nil)
        #expect(try Self.roundTrip(dropped) == dropped)
        result.droppedLines = 0
        let none = EngineEvent(time: Self.time(5_125), kind: .jobCompleted(job: 3, result: result))
        #expect(try Self.members(none)["droppedLines"] == nil, "written as before when none were dropped")
        #expect(try Self.roundTrip(none) == none)
    }

    // MARK: - Names (Documentation/JSON-EVENTS.md)

    @Test func encodedNamesMatchTheContract() throws {
        let required: [String: Set<String>] = [
            "job.queued": ["event", "job", "name", "operation", "stopOnFailure", "updates", "time"],
            "job.confirmed": ["event", "job", "time"],
            "job.started": ["event", "job", "time"],
            "update.started": ["event", "job", "index", "id", "time"],
            "progress": ["event", "job", "index", "updatePercent", "jobPercent", "message", "time"],
            "log": ["event", "job", "index", "stream", "line", "time"],
            "update.completed": [
                "event", "job", "index", "id", "resultCode", "result", "hResult", "unmappedResultCode", "rebootRequired",
                "durationMs", "time",
            ],
            "job.abortRequested": ["event", "job", "time"],
            "job.completed": ["event", "job", "resultCode", "result", "hResult", "rebootRequired", "time"],
            "job.cleanedUp": ["event", "job", "time"],
        ]
        // Present only when they say something.
        let optional: [String: Set<String>] = [
            "update.completed": ["reason", "errors", "startedAt"],
            "job.abortRequested": ["force"],
        ]
        var seen: Set<String> = []
        var optionalSeen: Set<String> = []
        for event in Self.events {
            let members = try Self.members(event)
            let name = try #require(members["event"]?.stringValue)
            seen.insert(name)
            let keys = Set(members.keys)
            let extra = keys.subtracting(required[name] ?? [])
            #expect(keys.isSuperset(of: required[name] ?? []), "\(name): missing \(required[name]!.subtracting(keys))")
            #expect(extra.isSubset(of: optional[name] ?? []), "\(name): unexpected \(extra)")
            optionalSeen.formUnion(extra)
        }
        #expect(optionalSeen == ["reason", "errors", "startedAt", "force"])
        #expect(seen == Set(required.keys), "every event name of the contract is covered")
        let update = try #require(try Self.members(Self.events[0])["updates"]?.arrayValue?.first?.objectValue)
        #expect(Set(update.keys) == ["index", "id", "title", "revision", "reboot", "impact", "progress", "size", "severity"])
        let plain = try #require(try Self.members(Self.events[0])["updates"]?.arrayValue?.last?.objectValue)
        #expect(Set(plain.keys) == ["index", "id", "title", "revision", "reboot", "impact", "progress"])
    }

    // MARK: - Refusals

    @Test func unknownEventNameIsNil() throws {
        #expect(try EventCoding.decode(name: "job.teleported", ["job": .integer(1)]) == nil)
    }

    @Test(arguments: [
        ("job.started", ["time": JSONValue.string("2027-01-15T08:00:00.000Z")], "`job`"),
        ("update.started", ["job": .integer(1), "index": .integer(0)], "`id`"),
        ("update.started", ["job": .string("1"), "index": .integer(0), "id": .string("a")], "`job`"),
        ("progress", ["job": .integer(1), "index": .integer(0)], "`jobPercent`"),
        ("log", ["job": .integer(1), "index": .integer(0), "line": .string("x")], "`stream`"),
        ("log", ["job": .integer(1), "index": .integer(0), "stream": .string("stdin"), "line": .string("x")], "`stream`"),
        ("update.completed", ["job": .integer(1), "index": .integer(0), "id": .string("a")], "`resultCode`"),
        ("update.completed", ["job": .integer(1), "index": .integer(0), "id": .string("a"), "resultCode": .integer(9)], "`resultCode`"),
        ("update.completed", ["job": .integer(1), "index": .integer(0), "id": .string("a"), "resultCode": .integer(2),
            "hResult": .string("80240022")], "`hResult`"),
        ("job.completed", ["job": .integer(1), "resultCode": .integer(2), "rebootRequired": .string("no")], "`rebootRequired`"),
        ("job.queued", ["job": .integer(1), "name": .string("n"), "operation": .string("install")], "`updates`"),
        ("job.queued", ["job": .integer(1), "name": .string("n"), "operation": .string("upgrade"), "updates": .array([])], "`operation`"),
        ("job.queued", ["job": .integer(1), "name": .string("n"), "operation": .string("install"),
            "updates": .array([.object(["title": .string("t")])])], "`id`"),
        ("job.cleanedUp", ["job": .double(1.5)], "`job`"),
    ])
    func missingOrWrongMembersAreNamed(name: String, members: [String: JSONValue], member: String) {
        do throws(WireError) {
            _ = try EventCoding.decode(name: name, JSONMembers(members))
            Issue.record("\(name) \(members) was accepted")
        } catch {
            #expect(error.code == .badArgument)
            #expect(error.message.contains(member), "\(error.message)")
            #expect(error.message.hasPrefix(name), "the message says which event: \(error.message)")
        }
    }
}
