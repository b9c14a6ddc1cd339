import APTTestSupport
import Foundation
import Testing

/// The package ships `installtop-relay` as a link to `installtop` (Scripts/build-deb): started
/// under that name, installtop is the hooks' relay and nothing else. These drive the debug
/// build's installtop through such a link, as apt's and dpkg's hooks would.
@Suite("installtop started as installtop-relay")
struct RelayAsInstalltopTests {
    /// A link named installtop-relay to the installtop under test, in `folder`.
    private static func relayLink(in folder: TestFolder) throws -> String {
        let link = folder.file("installtop-relay")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try InstalltopBinary.path())
        return link
    }

    @Test("dpkg's status lines go to the engine's socket as one observe message, and the relay exits 0")
    func forwardsToTheSocket() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let relay = try Self.relayLink(in: folder)
        // A listener in place of the engine: it hands the relay dpkg's lines on stdin, then
        // prints what came through the socket and the relay's exit status.
        let listener = """
            import socket, subprocess, sys
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(sys.argv[2]); server.listen(1); server.settimeout(120)
            relay = subprocess.Popen([sys.argv[1], "status", "--socket", sys.argv[2]], stdin=subprocess.PIPE)
            relay.stdin.write(b"processing: install: lab-a\\nstatus: lab-a: half-installed\\n"); relay.stdin.close()
            connection, _ = server.accept(); connection.settimeout(120)
            received = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk: break
                received += chunk
            print(received.decode()); print("exit", relay.wait(timeout=120))
            """
        let run = try TestCommand.run(["/usr/bin/python3", "-c", listener, relay, folder.file("engine.sock")])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("\"command\":\"observe\""), "\(run.stdout)")
        #expect(run.stdout.contains("\"event\":\"status\""), "\(run.stdout)")
        #expect(run.stdout.contains("status: lab-a: half-installed"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("exit 0\n"), "\(run.stdout)")
    }

    @Test("with no engine listening it reads its input to the end, prints nothing and exits 0, as a hook must")
    func noEngine() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let relay = try Self.relayLink(in: folder)
        // 1 MB of input: a relay that stopped reading early would leave dpkg with SIGPIPE.
        let feeder = "set -o pipefail; head -c 1048576 /dev/zero | tr '\\0' x | \"$0\" begin --socket \"$1\"; echo \"exit $?\""
        let run = try TestCommand.run(["/bin/bash", "-c", feeder, relay, folder.file("no-engine.sock")])
        #expect(run.stdout == "exit 0\n", "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }
}
