import EngineWire
import Foundation
import InstallEngine
import Testing

/// `update.started` of an update added to a running job (rule 28) carries the update as
/// `added`, in `job.queued`'s form; every other start is written as before.
@Suite("EventCoding: an added update on update.started")
struct EventCodingAddedUpdateTests {
    @Test("`added` holds the update with its index and package, and comes back; a start without it has no `added`")
    func addedBothWays() throws {
        let change = PackageChange(package: "lab-second", action: .install, newVersion: "2.0", architecture: "all")
        let added = Update(id: "lab-second", title: change.title, rebootBehavior: .may, package: change)
        let start = EngineEvent(time: EventCodingTests.time(1_000), kind: .updateStarted(job: 4, index: 1, updateID: "lab-second", added: added))
        let members = try EventCodingTests.members(start)
        let item = try #require(members["added"]?.objectValue)
        #expect(item["index"] == .integer(1) && item["id"] == .string("lab-second") && item["title"] == .string(change.title))
        #expect(item["package"]?.objectValue?["newVersion"] == .string("2.0"))
        #expect(try EventCodingTests.roundTrip(start) == start)

        let plain = EngineEvent(time: EventCodingTests.time(1_125), kind: .updateStarted(job: 4, index: 0, updateID: "lab-first"))
        #expect(try EventCodingTests.members(plain)["added"] == nil)
        #expect(try EventCodingTests.roundTrip(plain) == plain)
    }
}
