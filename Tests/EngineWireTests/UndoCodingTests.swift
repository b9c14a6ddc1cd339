import EngineWire
import Foundation
import InstallEngine
import Testing

@Suite("An undo on the wire: job.queued's undoOf")
struct UndoCodingTests {
    @Test("job.queued of an undo names the run it undoes and reads back the same; other jobs are written as before")
    func jobQueued() throws {
        let undo = JobDescriptor(id: 2, name: "apt undo 7", operation: .uninstall, updates: [Update(id: "openssl")],
                                 stopOnFailure: false, runByDriver: true, undoOf: 7)
        let line = EventCoding.encode(EngineEvent(time: Date(timeIntervalSince1970: 1_800_000_000), kind: .jobQueued(undo)))
        #expect(line.contains(#""undoOf":7"#) && line.contains(#""operation":"uninstall""#), "\(line)")
        guard case .event(let event) = try ServerMessage.decode(Array(line.utf8)), case .jobQueued(let back) = event.kind else {
            Issue.record("not a job.queued: \(line)")
            return
        }
        #expect(back.undoOf == 7)
        let plain = JobDescriptor(id: 3, name: "mine", operation: .install, updates: [Update(id: "a")], stopOnFailure: false)
        #expect(!EventCoding.encode(EngineEvent(time: Date(), kind: .jobQueued(plain))).contains("undoOf"))
    }
}
