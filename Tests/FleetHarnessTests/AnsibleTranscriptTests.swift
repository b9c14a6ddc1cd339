import FleetTestSupport
import Testing

/// The oracle of the differential tests reads Ansible's default output as Ansible means it.
@Suite("AnsibleTranscript reads ansible-playbook's own account")
struct AnsibleTranscriptTests {
    static let output = """

        PLAY [Loops] *******************************************************************

        TASK [Items] *******************************************************************
        changed: [web2] => (item=1)
        changed: [web1] => (item=1)
        failed: [web2] (item=3) => {"msg": "non-zero return code", "rc": 1}
        skipping: [web3] => (item=1)

        TASK [Delegated] ***************************************************************
        changed: [web1 -> web2]
        fatal: [web3]: UNREACHABLE! => {"msg": "ssh: connect"}

        TASK [Shaky] *******************************************************************
        [ERROR]: Task failed: Module failed: non-zero return code
        fatal: [web1]: FAILED! => {"changed": true, "msg": "non-zero return code", "rc": 1}
        ...ignoring

        RUNNING HANDLER [restart] ******************************************************
        changed: [web1]

        PLAY RECAP *********************************************************************
        web1                       : ok=3    changed=3    unreachable=0    failed=0    skipped=0    rescued=1    ignored=1
        web2                       : ok=0    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0

        """

    @Test("task lines per host: a failing loop item fails the task, a delegation is the host's, ...ignoring marks the failure ignored, handlers are left out")
    func taskLines() {
        let transcript = AnsibleTranscript(parsing: Self.output)
        func result(_ task: String, _ host: String) -> AnsibleTaskResult? {
            transcript.results[AnsibleTaskKey(play: "Loops", task: task, host: host)]
        }
        #expect(result("Items", "web1") == .ok)
        #expect(result("Items", "web2") == .failed)
        #expect(result("Items", "web3") == .skipped)
        #expect(result("Delegated", "web1") == .ok)
        #expect(result("Delegated", "web3") == .unreachable)
        #expect(result("Shaky", "web1") == .ignored)
        #expect(transcript.results.count == 6, "the handler's line is no task's: \(transcript.results)")
    }

    @Test("the recap's counts per host")
    func recap() {
        let recap = AnsibleTranscript(parsing: Self.output).recap
        #expect(recap["web1"]?.ok == 3 && recap["web1"]?.rescued == 1 && recap["web1"]?.ignored == 1 && recap["web1"]?.hostFailed == false)
        #expect(recap["web2"]?.failed == 1 && recap["web2"]?.hostFailed == true)
        #expect(recap.count == 2)
    }

    static let details = """

        PLAY [Details] [CHECK MODE] ****************************************************

        TASK [Items] [CHECK MODE] ******************************************************
        changed: [web1] => (item=a)
        ok: [web1] => (item=b)
        failed: [web2] (item={'name': 'c'}) => {"msg": "non-zero return code", "rc": 1}

        TASK [Real] ********************************************************************
        changed: [web1 -> web3]
        ok: [web2 -> localhost(127.0.0.1)]

        TASK [Slow] [CHECK MODE] *******************************************************
        ASYNC POLL on web1: jid=j1.1 started=1 finished=0
        ASYNC POLL on web1: jid=j1.1 started=1 finished=0
        ASYNC OK on web1: jid=j1.1
        changed: [web1]
        fatal: [web4]: UNREACHABLE! => {"msg": "ssh: connect", "unreachable": true}
        ...ignoring

        RUNNING HANDLER [restart] ******************************************************
        changed: [web1]
        skipping: [web2]

        PLAY RECAP *********************************************************************

        """

    @Test("item labels in order, delegates, changed lines, [CHECK MODE] banners, async polls, handlers per play, ignored unreachable")
    func details() {
        let transcript = AnsibleTranscript(parsing: Self.details)
        func key(_ task: String, _ host: String) -> AnsibleTaskKey { AnsibleTaskKey(play: "Details", task: task, host: host) }
        #expect(transcript.items[key("Items", "web1")] == ["a", "b"])
        #expect(transcript.items[key("Items", "web2")] == ["{'name': 'c'}"])
        #expect(transcript.delegates[key("Real", "web1")] == "web3" && transcript.delegates[key("Real", "web2")] == "localhost")
        #expect(transcript.changed == [key("Items", "web1"), key("Real", "web1"), key("Slow", "web1")])
        #expect(transcript.checkMode == [key("Items", ""), key("Slow", "")])
        #expect(transcript.polls == [key("Slow", "web1"): 2])
        #expect(transcript.handlersRan == ["Details": ["web1"]])
        #expect(transcript.results[key("Slow", "web4")] == .ignored)
    }
}
