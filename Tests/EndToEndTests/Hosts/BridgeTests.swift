import Foundation
import Glibc
import Testing

/// `installtop bridge`, what `--host` runs on each host: stdin and stdout joined to the engine's
/// socket, both ways, until either side ends.
@Suite("bridge")
struct BridgeTests {
    @Test("a subscribe written to the bridge's stdin gets the engine's snapshot on its stdout; when the engine stops, the bridge exits 0")
    func subscribeThroughTheBridge() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        let manifest = try daemon.manifest(job: "Job behind the bridge", update: "sleep", script: try daemon.folder.script("sleep.sh", "exec sleep 900"))
        #expect(try await daemon.run(["submit", manifest]).status == 0)

        // stdin from a FIFO the test writes: it stays open until the test closes it.
        let fifo = daemon.folder.file("bridge.in")
        #expect(mkfifo(fifo, 0o600) == 0)
        let bridge = try InstalltopProcess(["-c", "exec '\(try InstalltopBinary.path())' bridge --socket '\(daemon.socket)' < '\(fifo)'"],
                                           in: daemon.folder, executable: "/bin/sh")
        let input = open(fifo, O_WRONLY | O_CLOEXEC)
        #expect(input >= 0)
        let command = Array(#"{"command":"subscribe","id":1}"#.utf8) + [UInt8(ascii: "\n")]
        #expect(write(input, command, command.count) == command.count)

        try await waitUntil("the snapshot through the bridge; stdout:\n\(bridge.stdout)\nstderr:\n\(bridge.stderr)") {
            bridge.stdout.contains(#"{"event":"snapshot.end"}"#)
        }
        let output = bridge.stdout
        let lines = output.split(separator: "\n")
        #expect(lines.first == #"{"reply":"subscribe","id":1,"ok":true}"#, "\(output)")
        #expect(lines.dropFirst().first?.hasPrefix(#"{"event":"snapshot.begin""#) == true, "\(output)")
        #expect(output.contains("Job behind the bridge"), "\(output)")

        // The end of stdin is passed on; the bridge stays for what the engine still sends.
        close(input)
        serve.send(SIGTERM)
        let ended = try await bridge.finish(timeout: .seconds(180))
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stderr.isEmpty, "\(ended.stderr)")
    }

    @Test("with no engine at the socket the bridge says so on one line and exits 1")
    func noEngine() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let socket = folder.file("none.sock")
        let result = try await installtop(["bridge", "--socket", socket], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr == "installtop bridge: no engine at \(socket) (start one with `installtop serve`)\n")
        #expect(result.stdout.isEmpty)
    }
}
