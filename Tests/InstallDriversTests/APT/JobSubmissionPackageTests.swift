import EngineWire
import InstallDrivers
import InstallEngine
import Testing

/// A submitted package job carries its apt request (the engine plans it), and `confirm` lets a
/// job that awaits confirmation start: both survive the wire unchanged.
@Suite("JobSubmission: package jobs and the confirm command on the wire")
struct JobSubmissionPackageTests {
    static let packages: [PackageJob] = [
        PackageJob(request: .install(["curl", "openssl", "libc6:amd64"])),
        PackageJob(request: .remove(["telnet"]), aptConfig: "/tmp/r/etc/apt/apt.conf"),
        PackageJob(request: .upgrade),
        PackageJob(request: .fullUpgrade, aptConfig: "/srv/with space/\"quoted\"/apt.conf"),
        PackageJob(request: .upgrade, chroot: "/srv/images/web"),
        PackageJob(request: .reinstall(packages: ["curl"], repairing: nil)),
        // A repair's reinstall: versions pinned, a kept .deb by its path, the run it repairs.
        PackageJob(request: .reinstall(packages: ["lab-k2=2.0", "/var/lib/installtop/undo/3/lab-a_1.0_all.deb"], repairing: 4)),
        // Armed (commit-confirmed): the window and the checks travel with it.
        PackageJob(request: .upgrade, confirm: ConfirmRequest(seconds: 300)),
        PackageJob(request: .install(["nginx"]), confirm: ConfirmRequest(seconds: 90.5, checks: ["curl -fsS http://localhost/"],
                                                                         checksDirectory: "/srv/checks", revertOnRegression: true)),
    ]

    private func object(_ json: String) throws -> WireObject {
        WireObject(try #require(try JSONParser.parse(json).objectValue), context: "job")
    }

    private func command(_ line: String) throws -> WireCommand {
        try WireCommand(try #require(try JSONParser.parse(line).objectValue), kinds: testKinds)
    }

    @Test("A submission with a package round-trips through json and JobSubmission(WireObject)", arguments: packages)
    func roundTrip(package: PackageJob) throws {
        let submission = JobSubmission(
            name: APTJobKind.summary(of: package.request), operation: package.request.operation, updates: [], stopOnFailure: true, package: package)
        let read = try JobSubmission(try object(submission.json), kinds: testKinds)
        #expect(read == submission)
        #expect(read.package == package)
    }

    @Test("An armed job's window is refused on a reinstall, and without seconds more than 0")
    func confirmRefusals() throws {
        for apt in [#"{"reinstall":["curl"],"confirm":{"seconds":60}}"#, #"{"upgrade":true,"confirm":{"seconds":0}}"#,
                    #"{"upgrade":true,"confirm":{"checks":["true"]}}"#] {
            let line = #"{"command":"submit","jobs":[{"name":"x","operation":"install","updates":[],"apt":"# + apt + "}]}"
            #expect(throws: WireError.self, "\(apt)") { _ = try command(line) }
        }
        #expect(ConfirmRequest(seconds: 5400).durationText == "1h30m")
        #expect(ConfirmRequest(seconds: 45).durationText == "45s")
    }

    @Test("The apt request is an `apt` object in the job, in the manifest's words")
    func jsonShape() throws {
        let submission = JobSubmission(
            name: "tools", operation: .install, updates: [], stopOnFailure: false,
            package: PackageJob(request: .install(["jq"]), aptConfig: "/x/apt.conf"))
        let members = try #require(try JSONParser.parse(submission.json).objectValue)
        let apt = try #require(members["apt"]?.objectValue)
        #expect(apt["install"] == .array([.string("jq")]))
        #expect(apt["aptConfig"] == .string("/x/apt.conf"))
        #expect(members["updates"] == .array([]))
        let upgrade = JobSubmission(name: "up", operation: .install, updates: [], stopOnFailure: false, package: PackageJob(request: .fullUpgrade))
        let upgradeApt = try #require(try JSONParser.parse(upgrade.json).objectValue?["apt"]?.objectValue)
        #expect(upgradeApt["full_upgrade"] == .bool(true))
        #expect(upgradeApt["aptConfig"] == nil, "no aptConfig when the job uses installtop's own")
        #expect(upgradeApt["chroot"] == nil, "no chroot when apt runs on this system")
        let inChroot = JobSubmission(name: "img", operation: .install, updates: [], stopOnFailure: false,
                                     package: PackageJob(request: .upgrade, chroot: "/srv/images/web"))
        #expect(try JSONParser.parse(inChroot.json).objectValue?["apt"]?.objectValue?["chroot"] == .string("/srv/images/web"))
    }

    @Test("A submission without a package has no apt member, and reads back without one")
    func noPackage() throws {
        let submission = JobSubmission(
            name: "plain", operation: .install, updates: [Update(id: "jq", installCommand: .shell("true"))], stopOnFailure: false)
        let members = try #require(try JSONParser.parse(submission.json).objectValue)
        #expect(members["apt"] == nil)
        #expect(try JobSubmission(try object(submission.json), kinds: testKinds).package == nil)
        let explicitNull = #"{"name":"n","operation":"install","updates":[],"apt":null}"#
        #expect(try JobSubmission(try object(explicitNull), kinds: testKinds).package == nil)
    }

    @Test("A submit command with package jobs round-trips as a line")
    func submitCommand() throws {
        let submit = WireCommand.submit(Self.packages.map {
            JobSubmission(name: APTJobKind.summary(of: $0.request), operation: $0.request.operation, updates: [], stopOnFailure: false, package: $0)
        })
        #expect(try command(submit.line(requestID: 7)) == submit)
    }

    @Test("An apt member that is not an object, asks for nothing or for two things, is a bad argument naming `apt`", arguments: [
        #"{"name":"n","operation":"install","updates":[],"apt":["curl"]}"#,
        #"{"name":"n","operation":"install","updates":[],"apt":{}}"#,
        #"{"name":"n","operation":"install","updates":[],"apt":{"upgrade":false}}"#,
        #"{"name":"n","operation":"install","updates":[],"apt":{"install":"curl"}}"#,
        #"{"name":"n","operation":"install","updates":[],"apt":{"upgrade":true,"aptConfig":3}}"#,
        // Two requests are refused, as the manifest refuses them.
        #"{"name":"n","operation":"install","updates":[],"apt":{"install":["a"],"remove":["b"]}}"#,
    ])
    func badApt(json: String) throws {
        let members = try object(json)
        do {
            let read = try JobSubmission(members, kinds: testKinds)
            Issue.record("\(json) was accepted as \(read)")
        } catch {
            #expect(error.code == .badArgument)
            #expect(error.message.contains("apt"), "\(error.message)")
        }
    }

    @Test("confirm round-trips as a line, with and without a request id")
    func confirmRoundTrips() throws {
        let confirm = WireCommand.job(.confirm(job: 12))
        #expect(confirm.name == "confirm")
        #expect(try command(confirm.line()) == confirm)
        let line = confirm.line(requestID: 3)
        #expect(try command(line) == confirm)
        let members = try #require(try JSONParser.parse(line).objectValue)
        #expect(members["command"] == .string("confirm"))
        #expect(members["job"] == .integer(12))
        #expect(members["id"] == .integer(3))
        #expect(try command(#"{"command":"confirm","job":9000000000}"#) == .job(.confirm(job: 9_000_000_000)))
    }

    @Test("decline round-trips as a line")
    func declineRoundTrips() throws {
        let decline = WireCommand.job(.decline(job: 12))
        #expect(decline.name == "decline")
        #expect(try command(decline.line(requestID: 3)) == decline)
        #expect(try command(#"{"command":"decline","job":7}"#) == .job(.decline(job: 7)))
    }

    @Test("confirm without an integer job is a bad argument naming `job`", arguments: [
        #"{"command":"confirm"}"#, #"{"command":"confirm","job":"3"}"#, #"{"command":"confirm","job":1.5}"#,
    ])
    func badConfirm(line: String) throws {
        do {
            let read = try command(line)
            Issue.record("\(line) was accepted as \(read)")
        } catch let error as WireError {
            #expect(error.code == .badArgument)
            #expect(error.message.contains("`job`"), "\(error.message)")
        }
    }
}
