import Foundation
import Glibc
import Testing
import TestProcessSupport

/// Only the engine's uid is served (SO_PEERCRED), even when the socket file lets others in.
@Suite("daemon peers")
struct DaemonPeerTests {
    @Test("a client of another uid gets notAllowed and is disconnected; installtop status as that uid exits 1",
          .enabled(if: getuid() == 0, "needs root to run a client as uid 65534 (nobody)"))
    func anotherUidIsRefused() async throws {
        let setpriv = "/usr/bin/setpriv"
        let python = "/usr/bin/python3"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) runs the client as nobody")
        try #require(FileManager.default.isExecutableFile(atPath: python), "the raw client is a python3 script")
        let copies = try OtherUserExecutables(copying: [try InstalltopBinary.path()])
        defer { copies.remove() }
        // 0711: nobody may pass through to the socket but not list or write the directory.
        let daemon = try DaemonFixture(mode: 0o711)
        defer { daemon.remove() }
        let serve = try await daemon.start()
        // Deliberately opened up, so that connect(2) succeeds and only SO_PEERCRED stands in the way.
        #expect(chmod(daemon.socket, 0o666) == 0)
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

        let client = try InstalltopProcess(asNobody + [python, "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            try:
                s.sendall(b'{"command":"subscribe"}\\n')
            except OSError:
                pass
            data = b''
            while True:
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                data += chunk
            sys.stdout.write(data.decode() + 'CLOSED\\n')
            """, daemon.socket], in: daemon.folder, executable: setpriv)
        let refused = try await client.finish(timeout: .seconds(60))
        #expect(refused.status == 0, "\(refused.stderr)")
        let reply = try #require(refused.stdoutLines.first.map(JSONEvent.init(line:)), "\(refused.stdout)")
        #expect(reply.reply == "connect" && reply.bool("ok") == false && reply.error == "notAllowed", "\(reply)")
        #expect(refused.stdoutLines.count == 2 && refused.stdoutLines.last == "CLOSED",
                "nothing but the refusal, then the end: \(refused.stdout)")
        #expect(!refused.stdout.contains("snapshot"), "\(refused.stdout)")
        try await waitUntil("serve to log the refusal; stderr:\n\(serve.stderr)") {
            serve.stderr.contains("refused a connection from uid 65534")
        }

        let status = try await InstalltopProcess(asNobody + [copies.path("installtop"), "status", "--socket", daemon.socket],
                                                 in: daemon.folder, executable: setpriv).finish()
        #expect(status.status == 1, "stdout: \(status.stdout)\nstderr: \(status.stderr)")
        #expect(status.stdout.isEmpty && status.stderr.contains("installtop: "), "\(status.stderr)")

        #expect(try await daemon.run(["status"]).status == 0, "the engine's own uid is still served")
    }
}
