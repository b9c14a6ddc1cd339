import Foundation
import Glibc
import Testing

/// `installtop replay`: a recording played back through the binary, and what it refuses.
@Suite("replay")
struct ReplayTests {
    /// A recording of a shell on web1: a prompt, a command and its output (with an escape
    /// sequence and a character the recorder replaced), a resize, and the exit.
    private static let recording = """
        {"version": 2, "width": 80, "height": 24, "timestamp": 1795800000, "env": {"TERM": "xterm-256color"}, "title": "shell on web1"}
        [0.010000, "o", "web1$ "]
        [0.300000, "o", "uname -n\\r\\n"]
        [0.310000, "o", "web1\\r\\n\\u001b[1mbold\\u001b[0m \\ufffd\\r\\nweb1$ "]
        [0.400000, "r", "100x30"]
        [0.900000, "o", "exit\\r\\n"]

        """

    @Test("--file plays the output in order, byte for byte (escape sequences as recorded), with its pauses or --instant; the heading and the end on stderr")
    func playsAFile() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let cast = try folder.write("web1.cast", Self.recording)
        let expected = "web1$ uname -n\r\nweb1\r\n\u{1B}[1mbold\u{1B}[0m \u{FFFD}\r\nweb1$ exit\r\n"
        for options in [["--instant"], ["--speed", "4"], ["--idle-limit", "0.1"]] {
            let played = try await installtop(["replay", "--file", cast] + options, in: folder)
            #expect(played.status == 0, "\(options): \(played.stderr)")
            #expect(played.stdoutBytes == Data(expected.utf8), "\(options): \(played.stdout.debugDescription)")
            #expect(played.stderr.hasPrefix("installtop: \(cast) · 80×24"), "\(played.stderr)")
            #expect(played.stderr.hasSuffix("installtop: end of the recording\n"), "\(played.stderr)")
        }
    }

    @Test("a run that is not a shell, a run the history lacks, no history, a damaged file: exit 1 saying so; RUN and --file together, or neither: exit 2")
    func refusals() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let missing = try await installtop(["replay", "1"], in: folder)
        #expect(missing.status == 1 && missing.stderr.contains("there is no history at") && missing.stderr.contains("so no run 1"), "\(missing.stderr)")

        _ = try folder.write("one.yaml", "jobs:\n  - name: Tools\n    updates:\n      - {id: one, install: 'true'}\n")
        let run = try await installtop(["run", "--plain", "one.yaml"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let notShell = try await installtop(["replay", "1"], in: folder)
        #expect(notShell.status == 1, "\(notShell.stderr)")
        #expect(notShell.stderr == "installtop: run 1 is a commands job, not a shell: only the shells the board's s opens are recorded\n")
        let absent = try await installtop(["replay", "7"], in: folder)
        #expect(absent.status == 1 && absent.stderr.contains("holds no run 7: installtop history --jobs lists them"), "\(absent.stderr)")

        let damaged = try folder.write("damaged.cast", "{\"version\": 2, \"width\": 80, \"height\": 24}\n[1, \"o\"]\n[2, \"o\", \"x\"]\n")
        let unreadable = try await installtop(["replay", "--file", damaged], in: folder)
        #expect(unreadable.status == 1, "\(unreadable.stderr)")
        #expect(unreadable.stderr == "installtop: \(damaged):2: expected an event: [seconds, \"o\", \"text\"]\n")

        for arguments in [["replay"], ["replay", "1", "--file", damaged], ["replay", "1", "--speed", "0"], ["replay", "1", "--instant", "--speed", "2"]] {
            let usage = try await installtop(arguments, in: folder)
            #expect(usage.status == 2, "\(arguments): \(usage.stderr)")
        }
    }
}
