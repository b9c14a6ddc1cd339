import EngineWire
import InstallEngine
import Testing

@Suite("WireCommand and UpdateCoding: lines both ways, refusals")
struct WireCommandTests {
    /// Every field of an update set to something other than its default.
    static let fullUpdate = Update(
        id: "openssl", revision: 4, title: "OpenSSL 3.0.15 \"LTS\" ✓",
        installCommand: .argv(["/usr/bin/apt-get", "install", "-y", "openssl=3.0.15", "with space", "é"]),
        uninstallCommand: .shell("apt-get remove -y openssl && echo 'done' > /tmp/x\n"),
        rebootBehavior: .may, impact: .exclusive, progressSource: .output,
        timeout: .milliseconds(90_500), abortGrace: .milliseconds(2_250), workingDirectory: "/var/tmp/work dir",
        environment: ["DEBIAN_FRONTEND": "noninteractive", "EMPTY": "", "QUOTE": "a\"b\\c"],
        sizeInBytes: 9_000_000_000, severity: "Critical", description: "Fixes CVE-2024-1\nand more",
        categories: ["Security", "Libraries"])

    static let minimalUpdate = Update(id: "jq", installCommand: .shell("true"))

    static let commands: [WireCommand] = [
        .subscribe,
        .submit([
            JobSubmission(name: "Security", operation: .install, updates: [fullUpdate, minimalUpdate], stopOnFailure: true),
            JobSubmission(name: "Removal", operation: .uninstall, updates: [fullUpdate], stopOnFailure: false),
            JobSubmission(name: "Finish", operation: .install, updates: [minimalUpdate], stopOnFailure: false, asks: true),
        ]),
        .submit([]),
        .job(.abort(job: 3, force: false)),
        .job(.abort(job: 9_000_000_000, force: true)),
        .job(.abortAll(force: false)),
        .job(.abortAll(force: true)),
        .job(.cleanUp(job: 12)),
        .job(.retry(job: 4)),
        .history(limit: 0),
        .history(limit: 10_000),
        .durations(updateIDs: []),
        .durations(updateIDs: ["openssl", "zlib", "ü"]),
        .runs(limit: 20),
        .undo(run: 7),
    ]

    static func parse(_ line: String) throws -> WireCommand {
        let members = try #require(try JSONParser.parse(line).objectValue)
        return try WireCommand(members)
    }

    // MARK: - Round trips

    @Test(arguments: WireCommandTests.commands)
    func everyCommandRoundTrips(command: WireCommand) throws {
        #expect(try Self.parse(command.line()) == command)
        let line = command.line(requestID: 41)
        #expect(try Self.parse(line) == command)
        let members = try #require(try JSONParser.parse(line).objectValue)
        #expect(members["id"] == .integer(41))
        #expect(members["command"] == .string(command.name))
        #expect(!line.contains("\n"), "one line")
    }

    @Test(arguments: [WireCommandTests.fullUpdate, WireCommandTests.minimalUpdate])
    func updateRoundTrips(update: Update) throws {
        let object = try #require(try JSONParser.parse(UpdateCoding.encode(update)).objectValue)
        #expect(try UpdateCoding.decode(WireObject(object, context: "update")) == update)
    }

    @Test func updateFieldNamesFollowTheManifest() throws {
        let object = try #require(try JSONParser.parse(UpdateCoding.encode(Self.fullUpdate)).objectValue)
        #expect(Set(object.keys) == [
            "id", "revision", "title", "install", "uninstall", "reboot", "impact", "progress", "timeoutMs", "abortGraceMs",
            "workdir", "env", "size", "severity", "description", "categories",
        ])
        #expect(object["timeoutMs"] == .integer(90_500))
        #expect(object["abortGraceMs"] == .integer(2_250))
        #expect(object["uninstall"]?.stringValue?.hasPrefix("apt-get remove") == true)
        #expect(object["install"]?.arrayValue?.count == 6)
    }

    @Test func defaultsFillMissingUpdateMembers() throws {
        let update = try UpdateCoding.decode(WireObject(["id": .string("x"), "install": .string("true")], context: "u"))
        #expect(update == Update(id: "x", installCommand: .shell("true")))
        #expect(update.abortGrace == .seconds(10) && update.timeout == nil && update.title == "x")
    }

    @Test func historyLimitIsCapped() throws {
        #expect(try Self.parse(#"{"command":"history"}"#) == .history(limit: 50))
        #expect(try Self.parse(#"{"command":"history","limit":1000000}"#) == .history(limit: 10_000))
        #expect(try Self.parse(#"{"command":"runs"}"#) == .runs(limit: 50))
        #expect(try Self.parse(#"{"command":"runs","limit":1000000}"#) == .runs(limit: 10_000))
        #expect(WireCommand.runs(limit: 1).acts == false && WireCommand.undo(run: 1).acts, "a watcher may list runs, not undo them")
    }

    // MARK: - Refusals

    @Test func unknownCommand() {
        do {
            _ = try Self.parse(#"{"command":"reboot","id":2}"#)
            Issue.record("accepted")
        } catch let error as WireError {
            #expect(error.code == .unknownCommand)
            #expect(error.message.contains("\"reboot\""))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(arguments: [
        (#"{}"#, "`command`"),
        (#"{"command":3}"#, "`command`"),
        (#"{"command":"abort"}"#, "`job`"),
        (#"{"command":"abort","job":"3"}"#, "`job`"),
        (#"{"command":"abort","job":3.5}"#, "`job`"),
        (#"{"command":"abort","job":3,"force":"yes"}"#, "`force`"),
        (#"{"command":"abortAll","force":1}"#, "`force`"),
        (#"{"command":"cleanup","job":null}"#, "`job`"),
        (#"{"command":"retry","job":[1]}"#, "`job`"),
        (#"{"command":"history","limit":-1}"#, "`limit`"),
        (#"{"command":"history","limit":"ten"}"#, "`limit`"),
        (#"{"command":"runs","limit":-1}"#, "`limit`"),
        (#"{"command":"undo"}"#, "`run`"),
        (#"{"command":"durations","updates":"a"}"#, "`updates`"),
        (#"{"command":"durations","updates":[1]}"#, "`updates`"),
        (#"{"command":"submit"}"#, "`jobs`"),
        (#"{"command":"submit","jobs":[1]}"#, "`jobs`"),
        (#"{"command":"submit","jobs":[{"operation":"install","updates":[]}]}"#, "`name`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"upgrade","updates":[]}]}"#, "`operation`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"id":"a","install":[]}]}]}"#, "`install`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"id":"a","install":[1]}]}]}"#, "`install`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"id":"a","install":7}]}]}"#, "`install`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"id":"a","env":{"K":1}}]}]}"#, "`env.K`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"id":"a","env":[]}]}]}"#, "`env`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"id":"a","reboot":"sometimes"}]}]}"#, "`reboot`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"id":"a","timeoutMs":"1s"}]}]}"#, "`timeoutMs`"),
        (#"{"command":"submit","jobs":[{"name":"n","operation":"install","updates":[{"title":"t"}]}]}"#, "`id`"),
    ])
    func wrongTypesAreBadArguments(line: String, member: String) {
        do {
            _ = try Self.parse(line)
            Issue.record("\(line) was accepted")
        } catch let error as WireError {
            #expect(error.code == .badArgument, "\(line)")
            #expect(error.message.contains(member), "\(line): \(error.message)")
        } catch {
            Issue.record("\(line): \(error)")
        }
    }

    @Test("a job of commands that asks awaits a confirm unless submitted with yes; one that does not ask never does")
    func commandsThatAsk() {
        let asking = JobSubmission(name: "Finish", operation: .install, updates: [Self.minimalUpdate], stopOnFailure: false, asks: true)
        #expect(asking.awaitsConfirmation)
        #expect(asking.json.contains(#""ask":true"#), "\(asking.json)")
        var confirmed = asking
        confirmed.yes = true
        #expect(!confirmed.awaitsConfirmation)
        #expect(!JobSubmission(name: "Plain", operation: .install, updates: [Self.minimalUpdate], stopOnFailure: false).awaitsConfirmation)
    }
}
