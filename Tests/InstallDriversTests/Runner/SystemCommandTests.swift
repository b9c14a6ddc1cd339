import InstallDrivers
import Testing

/// `SystemCommand`, which runs apt-config, dpkg-query and apt's simulation to their end.
@Suite("SystemCommand")
struct SystemCommandTests {
    @Test("Both streams are read at once: 1 MiB on each, interleaved, arrives whole")
    func readsBothStreamsWhole() {
        // Each stream alone is far beyond a pipe's 64 KiB: read one after the other, the
        // command would block on the unread one and never end.
        let script = "i=0; while [ $i -lt 64 ]; do head -c 16384 /dev/zero | tr '\\0' o; head -c 16384 /dev/zero | tr '\\0' e >&2; i=$((i + 1)); done"
        let result = SystemCommand.run(["/bin/sh", "-c", script])
        #expect(result.status == 0)
        #expect(result.stdout.utf8.count == 1 << 20 && result.stdout.utf8.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(result.stderr.utf8.count == 1 << 20 && result.stderr.utf8.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test("The exit status, and 128 + the signal for a command killed by one")
    func exitStatusAndSignal() {
        #expect(SystemCommand.run(["/bin/sh", "-c", "exit 7"]).status == 7)
        #expect(SystemCommand.run(["/bin/sh", "-c", "kill -TERM $$"]).status == 128 + 15)
    }

    @Test("stdin ends at once: a command that reads it gets nothing and goes on")
    func stdinEndsAtOnce() {
        let result = SystemCommand.run(["/bin/sh", "-c", "cat; echo read-to-the-end"])
        #expect(result.status == 0 && result.stdout == "read-to-the-end\n")
    }

    @Test("The environment is installtop's with the given variables added, theirs winning")
    func environmentIsAdded() {
        let result = SystemCommand.run(["/bin/sh", "-c", "echo \"$INSTALLTOP_TEST_ADDED:$HOME\""],
                                       environment: ["INSTALLTOP_TEST_ADDED": "yes", "HOME": "/nowhere"])
        #expect(result.stdout == "yes:/nowhere\n")
        #expect(SystemCommand.run(["/bin/sh", "-c", "echo \"${PATH:+has-path}\""]).stdout == "has-path\n")
    }

    @Test("A command that cannot start: status -1 and the cause in stderr")
    func cannotStart() {
        let result = SystemCommand.run(["/nonexistent/installtop-tool", "dump"])
        #expect(result.failedToStart)
        #expect(result.stderr == "cannot run /nonexistent/installtop-tool: No such file or directory")
    }
}
