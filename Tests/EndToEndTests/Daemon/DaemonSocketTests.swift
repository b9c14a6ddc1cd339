import Foundation
import Glibc
import Testing

/// Where serve will listen: one engine per socket, stale sockets replaced, unsafe directories refused.
@Suite("daemon socket")
struct DaemonSocketTests {
    @Test("a second serve on the same socket exits 1; after kill -9 a new serve replaces the stale socket")
    func oneEnginePerSocket() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let first = try await daemon.start()
        var info = stat()
        #expect(lstat(daemon.socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK && info.st_mode & 0o777 == 0o600,
                "the socket is srw------- (mode \(String(info.st_mode, radix: 8)))")

        let second = try await daemon.run(["serve", "--no-history"] + daemon.quietDpkgArguments)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("an engine is already serving on \(daemon.socket) (pid \(first.pid))"), "\(second.stderr)")
        #expect(try await daemon.run(["status"]).status == 0, "the first engine still answers")

        first.send(SIGKILL)
        #expect(try await first.finish().status == 128 + SIGKILL)
        #expect(FileManager.default.fileExists(atPath: daemon.socket), "kill -9 leaves the socket behind")
        let stale = try await daemon.run(["status"])
        #expect(stale.status == 1 && stale.stderr.contains("no engine is serving"), "\(stale.stderr)")

        let replacement = try InstalltopProcess(["serve", "--socket", daemon.socket, "--no-history"] + daemon.quietDpkgArguments, in: daemon.folder)
        try await waitUntil("the new serve to listen; stderr:\n\(replacement.stderr)") {
            replacement.stderr.contains("serving on \(daemon.socket) (pid \(replacement.pid)")
        }
        let status = try await daemon.run(["status"])
        #expect(status.status == 0 && status.stdout == "The queue is empty.\n", "\(status.stdout)\(status.stderr)")
        replacement.send(SIGTERM)
        #expect(try await replacement.finish(timeout: .seconds(60)).status == 0)
    }

    @Test("serve refuses a socket in a directory others can write: exit 1")
    func worldWritableDirectory() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let open = daemon.folder.file("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        #expect(chmod(open, 0o777) == 0)

        let serve = try await installtop(["serve", "--no-history", "--socket", open + "/engine.sock"], in: daemon.folder)
        #expect(serve.status == 1, "\(serve.stderr)")
        #expect(serve.stderr.contains("installtop: will not use a socket in \(open): others can write it (mode 777)"), "\(serve.stderr)")
        #expect(!FileManager.default.fileExists(atPath: open + "/engine.sock"))
    }

    @Test("serve refuses a path that is not a socket and leaves the file alone")
    func notASocket() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try daemon.folder.write("engine.sock", "precious")
        let serve = try await daemon.run(["serve", "--no-history"])
        #expect(serve.status == 1 && serve.stderr.contains("exists and is not a socket"), "\(serve.stderr)")
        #expect((try? String(contentsOfFile: daemon.socket, encoding: .utf8)) == "precious")
    }
}

/// An engine out of file descriptors: it says so once, waits instead of spinning on the
/// listener, and accepts again when descriptors are free.
@Suite("daemon out of descriptors")
struct DaemonDescriptorTests {
    @Test("EMFILE on accept is logged once, and accepting resumes when descriptors are free")
    func outOfDescriptors() async throws {
        let prlimit = "/usr/bin/prlimit"
        try #require(FileManager.default.isExecutableFile(atPath: prlimit), "prlimit (util-linux) lowers serve's limit")
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        // Counted once serve has answered a client (some descriptors are opened lazily), then
        // room for two more: the third client waits in the listen backlog.
        #expect(try await daemon.run(["status"]).status == 0)
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(serve.pid)/fd").count
        let lowered = try await InstalltopProcess(
            ["--pid", String(serve.pid), "--nofile=\(open + 2):\(open + 2)"], in: daemon.folder, executable: prlimit
        ).finish()
        try #require(lowered.status == 0, "\(lowered.stderr)")

        // One client more at a time until serve runs out: the count above may have included a
        // descriptor about to be closed (the status client's connection, under load), which
        // left room for the four clients this test once opened at once, and no shortage came.
        var clients: [RawClient] = []
        try await waitUntil("serve to run out of descriptors; stderr:\n\(serve.stderr)") {
            if serve.stderr.contains("cannot accept connections: too many open files") { return true }
            if clients.count < 32 { clients.append(try RawClient(socket: daemon.socket)) }
            return false
        }
        clients.removeAll()
        // Descriptors are free again: a new client is served.
        try await waitUntil("status to work again") { try await daemon.run(["status"]).status == 0 }
        // Said when a shortage starts (the backlog's clients may cause a second), not every
        // 100 ms while it lasts.
        let mentions = serve.stderr.components(separatedBy: "too many open files").count - 1
        #expect((1...3).contains(mentions), "\(serve.stderr)")
        serve.send(SIGTERM)
        #expect(try await serve.finish(timeout: .seconds(60)).status == 0)
    }
}
