import CUnixSocket
import EngineDaemon
import EngineWire
import Foundation
import Glibc
import InstallEngine
import InstallEngineTesting
import Testing

@Suite("EngineServer: claiming and releasing the socket")
struct EngineServerSocketTests {
    private func queue() -> JobQueue {
        JobQueue(backend: ScriptedBackend(), configuration: TestEngine.configuration)
    }

    private func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private func isSocket(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    @Test func theSocketIsPrivate() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        var info = stat()
        try #require(lstat(engine.socketPath, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(exists(engine.socketPath + ".lock"))
        #expect(engine.server.socketPath == engine.socketPath)
    }

    @Test func aSecondServerOnThePathIsRefused() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        #expect(throws: DaemonError.alreadyServing(engine.socketPath, pid: getpid())) {
            _ = try EngineServer(
                queue: queue(), history: .off("off"), options: ServerOptions(socketPath: engine.socketPath))
        }
        let client = try engine.connect()
        try client.request(.job(.abortAll(force: false)))
    }

    @Test func stopRemovesTheSocket() throws {
        let engine = try TestEngine()
        let client = try engine.connect()
        try client.request(.job(.abortAll(force: false)))
        engine.stop()
        #expect(!exists(engine.socketPath))
        #expect(!exists(engine.socketPath + ".lock"), "the lock file is removed with the socket")
        #expect(throws: DaemonError.noEngine(engine.socketPath)) { _ = try EngineClient(path: engine.socketPath) }
        #expect(try client.nextMessage() == nil, "connected clients see the end")
    }

    @Test func aNewServerCanStartOnThePathAfterStop() throws {
        let engine = try TestEngine()
        engine.stop()
        let second = try EngineServer(
            queue: queue(), history: .off("off"), options: ServerOptions(socketPath: engine.socketPath))
        defer { second.stop() }
        try EngineClient(path: engine.socketPath).request(.job(.abortAll(force: false)))
    }

    @Test func aStaleSocketIsReplaced() throws {
        let directory = SocketDirectory()
        let stale = cus_listen(directory.socket, 1)
        try #require(stale >= 0)
        close(stale)
        try #require(isSocket(directory.socket), "the socket file is left behind")
        #expect(throws: DaemonError.noEngine(directory.socket)) { _ = try EngineClient(path: directory.socket) }

        let engine = try TestEngine(directory: directory)
        defer { engine.stop() }
        try engine.connect().request(.job(.abortAll(force: false)))
    }

    @Test func somethingElseAtThePathIsNotTouched() throws {
        let directory = SocketDirectory()
        #expect(FileManager.default.createFile(atPath: directory.socket, contents: Data("keep".utf8)))
        #expect(throws: DaemonError.notASocket(directory.socket)) { _ = try TestEngine(directory: directory) }
        #expect(FileManager.default.contents(atPath: directory.socket) == Data("keep".utf8))
    }

    @Test func anUnsafeDirectoryIsRefused() throws {
        let directory = SocketDirectory(mode: 0o777)
        do {
            _ = try TestEngine(directory: directory)
            Issue.record("a socket in a 0777 directory was accepted")
        } catch DaemonError.unsafeDirectory(let path, _) {
            #expect(path == directory.path)
        }
        #expect(!exists(directory.socket))
    }
}
