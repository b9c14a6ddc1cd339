@testable import InstallDrivers
import InstallEngine
import Testing

/// The driver protocol's lines, as Documentation/DRIVER-PROTOCOL.md documents them.
@Suite("driver protocol: decoding")
struct DriverMessageDecodingTests {
    private func decode(_ line: String) throws(DriverProtocolError) -> DriverMessage {
        try DriverMessage.decode(Array(line.utf8))
    }

    @Test func hello() throws {
        #expect(try decode(#"{"type":"hello","protocol":1,"driver":"installtop-apt"}"#)
            == .hello(DriverHello(protocolVersion: 1, driver: "installtop-apt")))
        #expect(throws: DriverProtocolError("the driver speaks protocol 2; this installtop speaks 1")) {
            try decode(#"{"type":"hello","protocol":2}"#)
        }
    }

    @Test("a plan: defaults for name, operation and title; sizes kept")
    func plan() throws {
        let message = try decode(#"""
            {"type":"plan","job":"apt","updates":[{"id":"openssl","title":"openssl 3.0.14 → 3.0.15","size":1450000},{"id":"curl"}]}
            """#)
        #expect(message == .plan(DriverPlan(job: "apt", name: "apt", operation: .install, updates: [
            DriverPlannedUpdate(id: "openssl", title: "openssl 3.0.14 → 3.0.15", size: 1_450_000),
            DriverPlannedUpdate(id: "curl", title: "curl"),
        ])))
        let removal = try decode(#"{"type":"plan","job":"apt","name":"Remove","operation":"uninstall","updates":[{"id":"telnet"}]}"#)
        guard case .plan(let plan) = removal else { Issue.record("\(removal)"); return }
        #expect(plan.operation == .uninstall && plan.name == "Remove")
    }

    @Test("plans that cannot be run are refused with the member at fault")
    func badPlans() {
        let cases: [(String, String)] = [
            (#"{"type":"plan","job":"a","updates":[]}"#, "a plan needs at least one update"),
            (#"{"type":"plan","job":"a"}"#, #"a plan needs "updates", an array"#),
            (#"{"type":"plan","job":"a","updates":[{"id":"x"},{"id":"x"}]}"#, #"updates[1]: the id "x" is in the plan twice"#),
            (#"{"type":"plan","job":"a","updates":[{"title":"x"}]}"#, #""updates[0].id" is missing"#),
            (#"{"type":"plan","job":"a","updates":[{"id":"x","size":"big"}]}"#, #""updates[0].size" must be a whole number"#),
            (#"{"type":"plan","job":"a","operation":"upgrade","updates":[{"id":"x"}]}"#,
             #""operation" must be "install" or "uninstall"; got "upgrade""#),
            (#"{"type":"plan","updates":[{"id":"x"}]}"#, #""job" is missing"#),
        ]
        for (line, message) in cases {
            #expect(throws: DriverProtocolError(message), "\(line)") { try decode(line) }
        }
    }

    @Test("per-update messages name their job and update")
    func updateMessages() throws {
        let openssl = DriverUpdateReference(job: "apt", update: "openssl")
        #expect(try decode(#"{"type":"started","job":"apt","update":"openssl"}"#) == .started(openssl))
        #expect(try decode(#"{"type":"progress","job":"apt","update":"openssl","percent":40,"message":"Unpacking","jobPercent":31.5}"#)
            == .progress(DriverProgress(reference: openssl, percent: 40, message: "Unpacking", jobPercent: 31.5)))
        #expect(try decode(#"{"type":"progress","job":"apt","update":"openssl","message":"Configuring"}"#)
            == .progress(DriverProgress(reference: openssl, percent: nil, message: "Configuring")))
        #expect(try decode(#"{"type":"reboot","job":"apt","update":"openssl"}"#) == .reboot(openssl))
        #expect(try decode(#"{"type":"finished","job":"apt","update":"openssl","result":"failed","reason":"dependency problems - leaving unconfigured"}"#)
            == .finished(DriverFinished(reference: openssl, result: .failed, reason: "dependency problems - leaving unconfigured")))
        #expect(try decode(#"{"type":"finished","job":"web1","update":"t3","result":"skipped","changed":false}"#)
            == .finished(DriverFinished(reference: DriverUpdateReference(job: "web1", update: "t3"), result: .skipped, changed: false)))
        #expect(try decode(#"{"type":"output","job":"apt","line":"Reading package lists..."}"#)
            == .output(DriverOutput(job: "apt", update: nil, stream: .stdout, line: "Reading package lists...")))
        #expect(try decode(#"{"type":"output","job":"apt","update":"openssl","stream":"stderr","line":"W: x"}"#)
            == .output(DriverOutput(job: "apt", update: "openssl", stream: .stderr, line: "W: x")))
        #expect(try decode(#"{"type":"stopping","waitingFor":["openssl"]}"#) == .stopping(DriverStopping(job: nil, waitingFor: ["openssl"])))
        #expect(try decode(#"{"type":"jobEnded","job":"web3","reason":"host unreachable"}"#)
            == .jobEnded(DriverJobEnded(job: "web3", reason: "host unreachable")))

        #expect(try decode(#"{"type":"finished","job":"web1","update":"t3","result":"succeeded","reason":"exit status 1","mark":"rescued"}"#)
            == .finished(DriverFinished(reference: DriverUpdateReference(job: "web1", update: "t3"), result: .succeeded,
                                        reason: "exit status 1", mark: .rescued)))
        #expect(try decode(#"{"type":"finished","job":"web1","update":"t3","result":"succeeded","mark":"someday"}"#)
            == .finished(DriverFinished(reference: DriverUpdateReference(job: "web1", update: "t3"), result: .succeeded)),
                "a mark this version does not know is none")
        #expect(try decode(#"{"type":"finished","job":"web2","update":"t3","result":"succeeded","changed":true,"check":true,"ranOn":"web1"}"#)
            == .finished(DriverFinished(reference: DriverUpdateReference(job: "web2", update: "t3"), result: .succeeded, changed: true,
                                        check: true, ranOn: "web1")))
        #expect(try decode(#"{"type":"jobEnded","job":"web4","reason":"the play stopped","notReached":true}"#)
            == .jobEnded(DriverJobEnded(job: "web4", reason: "the play stopped", notReached: true)))
    }

    @Test("members this version does not know are ignored")
    func unknownMembersAreIgnored() throws {
        #expect(try decode(#"{"type":"started","job":"a","update":"b","host":"web1","attempt":2}"#)
            == .started(DriverUpdateReference(job: "a", update: "b")))
    }

    @Test("bad lines say what is wrong")
    func badLines() {
        let cases: [(String, String)] = [
            ("[1,2]", "a line must be a JSON object"),
            (#"{"job":"a"}"#, #""type" is missing"#),
            (#"{"type":"launch"}"#, #"unknown "type" "launch""#),
            (#"{"type":"started","job":"a"}"#, #""update" is missing"#),
            (#"{"type":"started","job":1,"update":"b"}"#, #""job" must be a string"#),
            (#"{"type":"progress","job":"a","update":"b","percent":101}"#, #""percent" must be a number from 0 to 100"#),
            (#"{"type":"progress","job":"a","update":"b","percent":-1}"#, #""percent" must be a number from 0 to 100"#),
            (#"{"type":"finished","job":"a","update":"b","result":"ok"}"#,
             #""result" must be one of succeeded, succeededWithErrors, failed, aborted, skipped; got "ok""#),
            (#"{"type":"finished","job":"a","update":"b","result":"failed","changed":"yes"}"#, #""changed" must be true or false"#),
            (#"{"type":"output","job":"a","line":"x","stream":"stdin"}"#, #""stream" must be "stdout" or "stderr"; got "stdin""#),
            (#"{"type":"stopping","waitingFor":[1]}"#, #""waitingFor" must be an array of strings"#),
        ]
        for (line, message) in cases {
            #expect(throws: DriverProtocolError(message), "\(line)") { try decode(line) }
        }
        #expect(throws: DriverProtocolError.self) { try decode("{\"type\":") }
    }

    @Test("control lines installtop writes to a driver")
    func control() {
        #expect(DriverControl.stop(job: nil).line == "{\"type\":\"stop\"}\n")
        #expect(DriverControl.stop(job: "web1").line == "{\"type\":\"stop\",\"job\":\"web1\"}\n")
    }
}
