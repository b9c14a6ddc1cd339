import CUnixSocket
import EngineDaemon
import EngineWire
import Glibc
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
            #expect(error == .noAnswer(directory.socket, seconds: 0))
            #expect(error.description == "the engine on \(directory.socket) did not answer within 0 s")
        }
    }

    @Test func noEngineAndNotASocketAreToldApart() throws {
        let directory = SocketDirectory()
        #expect(throws: DaemonError.noEngine(directory.socket)) { try EngineClient(path: directory.socket) }
        // A socket file whose engine is gone: nothing listens.
        let stale = cus_listen(directory.socket, 1)
        try #require(stale >= 0)
        close(stale)
        #expect(throws: DaemonError.noEngine(directory.socket)) { try EngineClient(path: directory.socket) }
    }
}
