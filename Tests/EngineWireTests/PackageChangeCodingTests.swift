import EngineWire
import Foundation
import InstallEngine
import Testing

@Suite("PackageChangeCoding: a package update's name, action and versions in job.queued and submit")
struct PackageChangeCodingTests {
    static let changes: [PackageChange] = [
        PackageChange(package: "openssl", action: .upgrade, oldVersion: "3.0.14-1~deb12u1", newVersion: "3.0.15-1~deb12u1",
                      architecture: "amd64"),
        PackageChange(package: "curl", action: .install, newVersion: "7.88.1"),
        PackageChange(package: "telnet", action: .remove, oldVersion: "0.17"),
        PackageChange(package: "x\"y", action: .purge),
        PackageChange(package: "same", action: .reinstall, oldVersion: "1:2.0+é", newVersion: "1:2.0+é", architecture: "all"),
        PackageChange(package: "perl-base", action: .upgrade, oldVersion: "5.36.0-7", newVersion: "5.36.0-7+deb12u2", essential: true),
    ]

    static func packageUpdate(_ change: PackageChange) -> Update {
        Update(id: change.package, title: change.title, progressSource: .none, package: change)
    }

    static func queued(_ updates: [Update]) -> EngineEvent {
        EngineEvent(
            time: Date(timeIntervalSince1970: 1_800_000_000),
            kind: .jobQueued(JobDescriptor(id: 3, name: "apt", operation: .install, updates: updates, stopOnFailure: false)))
    }

    static func decodeEvent(_ line: String) throws -> EngineEvent? {
        let object = try #require(try JSONParser.parse(line).objectValue)
        return try EventCoding.decode(name: try #require(object["event"]?.stringValue), object)
    }

    // MARK: - Round trips

    @Test(arguments: PackageChangeCodingTests.changes)
    func jobQueuedCarriesThePackageBothWays(change: PackageChange) throws {
        let event = Self.queued([Self.packageUpdate(change), Update(id: "plain")])
        let decoded = try #require(try Self.decodeEvent(EventCoding.encode(event)))
        #expect(decoded == event, "\(EventCoding.encode(event))")
        guard case .jobQueued(let descriptor) = decoded.kind else {
            Issue.record("decoded as \(decoded.kind)")
            return
        }
        #expect(descriptor.updates.map(\.package) == [change, nil])
    }

    @Test(arguments: PackageChangeCodingTests.changes)
    func updateCodingCarriesThePackageBothWays(change: PackageChange) throws {
        var update = Self.packageUpdate(change)
        update.installCommand = .argv(["/bin/true"])
        let object = try #require(try JSONParser.parse(UpdateCoding.encode(update)).objectValue)
        #expect(try UpdateCoding.decode(WireObject(object, context: "update")) == update)
    }

    @Test func submitCarriesThePackage() throws {
        var update = Self.packageUpdate(Self.changes[0])
        update.installCommand = .shell("true")
        let command = WireCommand.submit([JobSubmission(name: "apt", operation: .install, updates: [update], stopOnFailure: false)])
        let members = try #require(try JSONParser.parse(command.line()).objectValue)
        #expect(try WireCommand(members) == command)
    }

    // MARK: - The JSON

    @Test func thePackageMemberHasItsNamesAndLeavesOutWhatIsUnknown() throws {
        let line = EventCoding.encode(Self.queued([
            Self.packageUpdate(Self.changes[0]), Self.packageUpdate(Self.changes[2]),
        ]))
        #expect(line.contains(#","package":{"name":"openssl","action":"upgrade","oldVersion":"3.0.14-1~deb12u1","#
            + #""newVersion":"3.0.15-1~deb12u1","architecture":"amd64"}}"#), "\(line)")
        #expect(line.contains(#","package":{"name":"telnet","action":"remove","oldVersion":"0.17"}}"#), "\(line)")
        let update = try #require(try JSONParser.parse(UpdateCoding.encode(Self.packageUpdate(Self.changes[1]))).objectValue)
        #expect(update["package"] == .object(["name": .string("curl"), "action": .string("install"), "newVersion": .string("7.88.1")]))
    }

    @Test("essential: written only when true; missing (what older versions wrote) reads as false; not a boolean is refused")
    func essentialIsAnAddedMember() throws {
        let line = EventCoding.encode(Self.queued([Self.packageUpdate(Self.changes[5]), Self.packageUpdate(Self.changes[0])]))
        #expect(line.contains(#""newVersion":"5.36.0-7+deb12u2","essential":true}"#), "\(line)")
        #expect(line.components(separatedBy: "essential").count == 2, "only the Essential package says so: \(line)")
        let old = try UpdateCoding.decode(WireObject(["id": .string("openssl"), "package": .object([
            "name": .string("openssl"), "action": .string("upgrade"), "oldVersion": .string("1"), "newVersion": .string("2"),
        ])], context: "update"))
        #expect(old.package?.essential == false)
        #expect(Self.updateError(.object(["name": .string("dpkg"), "action": .string("upgrade"), "essential": .string("yes")]))?
            .message.contains("essential") == true)
    }

    /// Pinned byte for byte: consumers of `--json` and older monitors see ordinary updates as before.
    @Test func ordinaryUpdatesAreWrittenAsBefore() {
        let event = Self.queued([Update(id: "tzdata", sizeInBytes: 12, severity: "Low"), Update(id: "jq")])
        #expect(EventCoding.encode(event) == #"{"event":"job.queued","job":3,"name":"apt","operation":"install","stopOnFailure":false,"#
            + #""updates":[{"index":0,"id":"tzdata","title":"tzdata","revision":1,"reboot":"never","impact":"normal","#
            + #""progress":"channel","size":12,"severity":"Low"},{"index":1,"id":"jq","title":"jq","revision":1,"#
            + #""reboot":"never","impact":"normal","progress":"channel"}],"time":"2027-01-15T08:00:00.000Z"}"#)
        #expect(UpdateCoding.encode(Update(id: "jq", installCommand: .shell("true")))
            == #"{"id":"jq","revision":1,"title":"jq","install":"true","reboot":"never","impact":"normal","progress":"channel","#
            + #""abortGraceMs":10000}"#)
    }

    @Test func aNullPackageIsNoPackage() throws {
        let update = try UpdateCoding.decode(WireObject(["id": .string("x"), "package": .null], context: "u"))
        #expect(update.package == nil)
    }

    // MARK: - Refusals

    @Test(arguments: [
        (JSONValue.string("openssl"), "`package`"),
        (.object(["action": .string("install")]), "`name`"),
        (.object(["name": .string("openssl")]), "`action`"),
        (.object(["name": .string("openssl"), "action": .string("downgrade")]), "`action`"),
        (.object(["name": .string("openssl"), "action": .string("install"), "newVersion": .integer(3)]), "`newVersion`"),
    ])
    func wrongPackageMembersAreNamed(package: JSONValue, member: String) {
        for error in [Self.queuedError(package), Self.updateError(package)] {
            guard let error else {
                Issue.record("\(package) was accepted")
                continue
            }
            #expect(error.code == .badArgument)
            #expect(error.message.contains(member), "\(error.message)")
            #expect(error.message.contains("package"), "the message says where: \(error.message)")
        }
    }

    // Two functions rather than an array of typed-throws closures: Swift 6.3's SILGen crashes on that.
    private static func queuedError(_ package: JSONValue) -> WireError? {
        do throws(WireError) {
            _ = try EventCoding.decode(name: "job.queued", [
                "job": .integer(1), "name": .string("apt"), "operation": .string("install"),
                "updates": .array([.object(["id": .string("openssl"), "package": package])]),
            ])
            return nil
        } catch {
            return error
        }
    }

    private static func updateError(_ package: JSONValue) -> WireError? {
        do throws(WireError) {
            _ = try UpdateCoding.decode(WireObject(["id": .string("openssl"), "package": package], context: "update"))
            return nil
        } catch {
            return error
        }
    }
}
