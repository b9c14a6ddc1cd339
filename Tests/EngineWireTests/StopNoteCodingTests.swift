import EngineWire
import Foundation
import InstallEngine
import Testing

@Suite("What an abort does, on the wire: job.queued's stopNote")
struct StopNoteCodingTests {
    @Test("A driver's note is written as an object and reads back the same; a job without one is written as before; a bad one is refused")
    func jobQueued() throws {
        let note = JobStopNote(sentence: "apt finishes the running package, then stops.", short: "apt finishes its running package first.")
        let job = JobDescriptor(id: 2, name: "apt upgrade", operation: .install, updates: [Update(id: "openssl")],
                                stopOnFailure: false, runByDriver: true, stopNote: note)
        let line = EventCoding.encode(EngineEvent(time: Date(timeIntervalSince1970: 1_800_000_000), kind: .jobQueued(job)))
        #expect(line.contains(#""stopNote":{"sentence":"apt finishes the running package, then stops.","short":"apt finishes its running package first."}"#),
                "\(line)")
        guard case .event(let event) = try ServerMessage.decode(Array(line.utf8)), case .jobQueued(let back) = event.kind else {
            Issue.record("not a job.queued: \(line)")
            return
        }
        #expect(back == job)
        let plain = JobDescriptor(id: 3, name: "mine", operation: .install, updates: [Update(id: "a")], stopOnFailure: false)
        #expect(!EventCoding.encode(EngineEvent(time: Date(), kind: .jobQueued(plain))).contains("stopNote"))

        let bad = line.replacingOccurrences(of: #""stopNote":{"#, with: #""stopNote":3,"x":{"#)
        #expect(throws: WireError.self) { try ServerMessage.decode(Array(bad.utf8)) }
    }
}

@Suite("A package job's tool and a kind's forced stop, on the wire")
struct PackageToolCodingTests {
    @Test("packageTool and the note's forcing are written and read back; jobs without them are written as before")
    func packageToolAndForcing() throws {
        let note = JobStopNote(sentence: "Once rpm runs, the stop waits.", short: "Waits for rpm.", forcing: "refused while rpm runs")
        let job = JobDescriptor(id: 4, name: "dnf install curl", operation: .install, updates: [Update(id: "curl")],
                                stopOnFailure: false, runByDriver: true, stopNote: note, packageTool: "dnf")
        let line = EventCoding.encode(EngineEvent(time: Date(timeIntervalSince1970: 1_800_000_000), kind: .jobQueued(job)))
        #expect(line.contains(#""forcing":"refused while rpm runs""#) && line.contains(#""packageTool":"dnf""#), "\(line)")
        guard case .event(let event) = try ServerMessage.decode(Array(line.utf8)), case .jobQueued(let back) = event.kind else {
            Issue.record("not a job.queued: \(line)")
            return
        }
        #expect(back == job)
        let plain = JobDescriptor(id: 5, name: "mine", operation: .install, updates: [Update(id: "a")], stopOnFailure: false)
        let plainLine = EventCoding.encode(EngineEvent(time: Date(), kind: .jobQueued(plain)))
        #expect(!plainLine.contains("packageTool") && !plainLine.contains("forcing"))
    }
}
