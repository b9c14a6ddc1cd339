import CUnixSocket
import EngineDaemon
import EngineWire
import Foundation
import Glibc
import Synchronization
import Testing

@Suite("EngineClient: what a command-line client meets")
struct EngineClientTests {
    @Test func anEngineThatNeverAnswersIsGivenUpOn() throws {
        // A socket that listens but never accepts: connect succeeds (the backlog), nothing answers.
        let directory = SocketDirectory()
        let listener = cus_listen(directory.socket, 4)
        try #require(listener >= 0)
        defer { close(listener) }
        let client = try EngineClient(path: directory.socket)
        defer { client.close() }
        do {
            _ = try client.request(.job(.abort(job: 1, force: false)), timeout: .milliseconds(200))
            Issue.record("a silent engine answered")
        } catch {
            // Silent to the request and to the question whether it is alive: twice the timeout,
            // said in milliseconds (not "0 s").
            #expect(error == .noAnswer(directory.socket, waited: .milliseconds(400)))
            #expect(error.description == "the engine on \(directory.socket) did not answer within 400 ms")
        }
    }

    @Test("an engine still working on a request (planning a kind's job) is waited for as long as it answers the client's question whether it is alive")
    func aBusyEngineThatAnswersIsWaitedFor() throws {
        let directory = SocketDirectory()
        let listener = cus_listen(directory.socket, 4)
        try #require(listener >= 0)
        defer { close(listener) }
        // On a thread of its own: the test's blocking request may hold a thread of the
        // cooperative pool, which a task playing the engine would wait for.
        let questions = Mutex<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            questions.withLock { $0 = Self.answerTheThirdQuestion(on: listener) }
            done.signal()
        }.start()
        let client = try EngineClient(path: directory.socket)
        let reply = try client.request(.job(.abort(job: 1, force: false)), timeout: .milliseconds(100))
        #expect(reply.command == "abort" && reply.error == nil)
        client.close()
        done.wait()
        #expect(questions.withLock { $0 } == 3, "the client asked three times before the answer came")
    }

    /// A fake engine: accepts one connection, answers each `durations` question at once and
    /// the other request only after the third question (five of the client's timeouts after
    /// it was sent). Returns how many questions came before the client closed.
    private static func answerTheThirdQuestion(on listener: Int32) -> Int {
        var ready = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        guard poll(&ready, 1, 60_000) == 1 else { return -1 }
        let connection = cus_accept(listener)
        guard connection >= 0 else { return -1 }
        defer { close(connection) }
        // Accepted non-blocking: this fake reads by blocking.
        _ = fcntl(connection, F_SETFL, 0)
        var reader = LineReader(maximumLength: 1 << 16)
        var questions = 0
        var request: Int?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return questions }
            let lines = buffer.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            for case .complete(let bytes) in lines {
                let line = String(decoding: bytes, as: UTF8.self)
                guard let id = requestID(in: line) else { continue }
                var replies: [WireReply] = []
                if line.contains("\"durations\"") {
                    questions += 1
                    replies.append(WireReply(command: "durations", requestID: id, fields: ["durations": .object(JSONMembers([:]))]))
                } else {
                    request = id
                }
                if questions == 3, let asked = request {
                    replies.append(WireReply(command: "abort", requestID: asked))
                    request = nil
                }
                for reply in replies {
                    let text = Array((reply.line + "\n").utf8)
                    _ = text.withUnsafeBytes { cus_send(connection, $0.baseAddress!, $0.count) }
                }
            }
        }
    }

    /// The `"id"` of a command line.
    private static func requestID(in line: String) -> Int? {
        guard let range = line.range(of: "\"id\":") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func noEngineAndNotASocketAreToldApart() throws {
        let directory = SocketDirectory()
        #expect(throws: DaemonError.noEngine(directory.socket)) { try EngineClient(path: directory.socket) }
        // A socket file whose engine is gone: nothing listens.
        let stale = cus_listen(directory.socket, 1)
        try #require(stale >= 0)
        close(stale)
        // A child another test spawns at that moment holds the listening socket until it
        // execs (seen once in a full run): a connect may then still be accepted, briefly.
        let deadline = ContinuousClock.now + .seconds(30)
        var refused: DaemonError?
        while refused == nil, ContinuousClock.now < deadline {
            do {
                _ = try EngineClient(path: directory.socket)
                usleep(10_000)
            } catch {
                refused = error
            }
        }
        #expect(refused == .noEngine(directory.socket))
    }
}
