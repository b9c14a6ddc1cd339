import EngineDaemon
import InstallEngine
import Monitor
import Testing

@testable import MonitorRuntime

/// Whether a connected host's engine still answers, on instants given by hand: a question after
/// 2 s of silence, one at a time; the host silent 4 s after an unanswered question, once; any
/// byte an answer.
@Suite("Board engine heartbeat")
struct EngineHeartbeatTests {
    private let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test("asked after 2 s of silence, once; silent 4 s later, said once; a byte is an answer, and the count starts afresh")
    func askThenJudge() {
        var heartbeat = EngineHeartbeat(heardAt: at(0))
        #expect(!heartbeat.probeIsDue(at: at(1.9)))
        #expect(heartbeat.nextDue == at(2))
        #expect(heartbeat.probeIsDue(at: at(2)))
        heartbeat.asked(at: at(2))
        #expect(!heartbeat.probeIsDue(at: at(5)), "one question unanswered at a time")
        #expect(heartbeat.nextDue == at(6))
        let early = heartbeat.silenceIsDue(at: at(5.9))
        let due = heartbeat.silenceIsDue(at: at(6))
        let again = heartbeat.silenceIsDue(at: at(60))
        #expect(!early && due && !again, "said at 6 s, once")
        #expect(heartbeat.nextDue == nil && !heartbeat.probeIsDue(at: at(600)), "nothing more asked of a silent host")
        #expect(heartbeat.lastHeard == at(0), "its jobs are as they were then")

        let answers = heartbeat.heard(at: at(61))
        #expect(answers && !heartbeat.isSilent && heartbeat.nextDue == at(63), "it answers again")
        let nothingNew = heartbeat.heard(at: at(62))
        #expect(!nothingNew, "a byte from a host that answers is nothing new")
        #expect(heartbeat.probeIsDue(at: at(64)))
    }

    @Test("a host that answers each question within 4 s is never silent")
    func answeredInTime() {
        // Asked 2 s after each answer, answering 3.9 s later (a slow link on a loaded machine).
        var heartbeat = EngineHeartbeat(heardAt: at(0))
        var answered = 0.0
        for _ in 1...10 {
            #expect(heartbeat.probeIsDue(at: at(answered + 2)))
            heartbeat.asked(at: at(answered + 2))
            let silent = heartbeat.silenceIsDue(at: at(answered + 5.8))
            answered += 5.9
            let wasSilent = heartbeat.heard(at: at(answered))
            #expect(!silent && !wasSilent)
        }
    }

    @Test("a connection asks nothing before its snapshot ended; then it asks, says the host silent, and says it answers again")
    func connectionHeartbeat() {
        var connection = HostConnection(command: SSHCommand(host: "web2"))
        var numbers = BoardJobNumbers()
        var durations: [String: Double] = [:]
        _ = connection.heard(at: at(0))
        #expect(connection.checkHeartbeat(at: at(60)).isEmpty, "still connecting: not silent")
        _ = connection.received(.snapshotBegin(jobs: 0), numbers: &numbers, durations: &durations)
        _ = connection.received(.snapshotEnd, numbers: &numbers, durations: &durations)
        #expect(connection.checkHeartbeat(at: at(2)).isEmpty, "asked (no ssh here to take it: as good as asked)")
        #expect(connection.checkHeartbeat(at: at(5.9)).isEmpty)
        let silent = connection.checkHeartbeat(at: at(6))
        guard case .monitor(.host(.silent("web2", _)))? = silent.first, silent.count == 1 else {
            Issue.record("\(silent)")
            return
        }
        #expect(connection.checkHeartbeat(at: at(7)).isEmpty)
        let back = connection.heard(at: at(8))
        guard case .monitor(.host(.answersAgain("web2")))? = back.first, back.count == 1 else {
            Issue.record("\(back)")
            return
        }
        #expect(connection.heard(at: at(9)).isEmpty)
    }
}
