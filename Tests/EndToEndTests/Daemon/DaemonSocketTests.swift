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

        let second = try await daemon.run(["serve", "--no-history"])
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("an engine is already serving on \(daemon.socket) (pid \(first.pid))"), "\(second.stderr)")
        #expect(try await daemon.run(["status"]).status == 0, "the first engine still answers")

        first.send(SIGKILL)
        #expect(try await first.finish().status == 128 + SIGKILL)
        #expect(FileManager.default.fileExists(atPath: daemon.socket), "kill -9 leaves the socket behind")
        let stale = try await daemon.run(["status"])
        #expect(stale.status == 1 && stale.stderr.contains("no engine is serving"), "\(stale.stderr)")

        let replacement = try InstalltopProcess(["serve", "--socket", daemon.socket, "--no-history"], in: daemon.folder)
        try await waitUntil("the new serve to listen; stderr:\n\(replacement.stderr)") {
            replacement.stderr.contains("serving on \(daemon.socket) (pid \(replacement.pid)")
        }
        let status = try await daemon.run(["status"])
        #expect(status.status == 0 && status.stdout == "The queue is empty.\n", "\(status.stdout)\(status.stderr)")
        replacement.send(SIGTERM)
        #expect(try await replacement.finish(timeout: .seconds(15)).status == 0)
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
