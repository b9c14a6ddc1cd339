import EngineWire
import Foundation
import InstallEngine
import Testing

@Suite("Observed jobs on the wire: job.queued's observedBy and the relay's observe command")
struct ObservedCodingTests {
    static let initiator = ObservedInitiator(
        pid: 812, startTicks: 93_412, program: "apt-get", commandLine: ["apt-get", "install", "-y", "nginx \"light\""],
        uid: 0, user: "root", terminal: "pts/1")

    @Test("job.queued says observed and who, and reads back the same; other jobs are written as before")
    func jobQueued() throws {
        let observed = JobDescriptor(id: 3, name: Self.initiator.jobName, operation: .install, updates: [Update(id: "nginx")],
                                     stopOnFailure: false, runByDriver: true, observedBy: Self.initiator)
        let line = EventCoding.encode(EngineEvent(time: Date(timeIntervalSince1970: 1_800_000_000), kind: .jobQueued(observed)))
        #expect(line.contains(#""observed":true"#) && line.contains(#""program":"apt-get""#) && line.contains(#""terminal":"pts/1""#))
        guard case .event(let event) = try ServerMessage.decode(Array(line.utf8)), case .jobQueued(let back) = event.kind else {
            Issue.record("not a job.queued: \(line)")
            return
        }
        #expect(back.observedBy == Self.initiator)
        let plain = JobDescriptor(id: 4, name: "mine", operation: .install, updates: [Update(id: "a")], stopOnFailure: false)
        #expect(!EventCoding.encode(EngineEvent(time: Date(), kind: .jobQueued(plain))).contains("observed"))
    }

    @Test("The observe command reads back what the relay wrote, dpkg's pid included")
    func observeCommand() throws {
        let report = ObservedReport(event: .status, initiator: Self.initiator, dpkg: 900, sentMicroseconds: 1_800_000_000_000_000,
                                    dropped: 2, lines: ["processing: install: nginx", "status: nginx: half-installed"])
        let line = WireCommand.observe(report).line()
        guard case .object(let members) = try JSONParser.parse(Array(line.utf8)) else {
            Issue.record("not an object: \(line)")
            return
        }
        #expect(try WireCommand(members) == .observe(report))
    }

    @Test("The relay's dpkgGone (its dpkg exited before it looked, the initiator is who adopted the logger) reads back; absent, it is false")
    func observeCommandDpkgGone() throws {
        let report = ObservedReport(event: .status, initiator: Self.initiator, dpkgGone: true, lines: ["processing: configure: nginx"])
        let line = WireCommand.observe(report).line()
        #expect(line.contains(#""dpkgGone":true"#))
        // As RelayMessage writes it.
        let relayLine = #"{"command":"observe","event":"status","sent":1,"relay":7,"initiator":{"pid":812,"start":93412,"program":"installtop","#
            + #""commandLine":["installtop","apt","revert","1"],"uid":0,"user":"root","terminal":""},"dpkgGone":true,"lines":["processing: configure: nginx"]}"#
        for text in [line, relayLine] {
            guard case .object(let members) = try JSONParser.parse(Array(text.utf8)), case .observe(let back) = try WireCommand(members) else {
                Issue.record("not an observe command: \(text)")
                continue
            }
            #expect(back.dpkgGone)
        }
        let plain = WireCommand.observe(ObservedReport(event: .status, initiator: Self.initiator, lines: [])).line()
        guard case .object(let members) = try JSONParser.parse(Array(plain.utf8)), case .observe(let back) = try WireCommand(members) else {
            Issue.record("not an observe command: \(plain)")
            return
        }
        #expect(!back.dpkgGone && !plain.contains("dpkgGone"))
    }

    @Test("The job's name: the command line and who, without paths or an interpreter; unattended-upgrade by its whole name")
    func jobName() {
        #expect(Self.initiator.jobName == "apt-get install -y nginx \"light\" — root on pts/1")
        let timer = ObservedInitiator(pid: 5, startTicks: 1, program: "unattended-upgr",
                                      commandLine: ["/usr/bin/python3", "/usr/bin/unattended-upgrade"], uid: 0, user: "root", terminal: "")
        #expect(timer.jobName == "unattended-upgrade — root")
    }
}
