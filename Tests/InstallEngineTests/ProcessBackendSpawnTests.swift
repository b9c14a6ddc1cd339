import Foundation
import InstallEngine
import Testing
import TestProcessSupport

@Suite("ProcessBackend: finding and starting the command")
struct ProcessBackendSpawnTests {
    private let backend = ProcessBackend()

    @Test func aNameIsLookedUpInPath() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.argv(["echo", "from", "PATH"])), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == ["from PATH"])
    }

    @Test func theLookupUsesThePathTheUpdateGivesTheChild() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("tools"), withIntermediateDirectories: true)
        try directory.script("tools/installtop-test-tool", "echo tool ran")
        let reporter = RecordingReporter()
        let request = UpdateRunRequest.running(.argv(["installtop-test-tool"]),
                                               environment: ["PATH": "\(directory.file("tools")):/usr/bin:/bin"])
        #expect(await outcomeOfFreshExecutable(request, on: backend, reporter: reporter) == .exited(0))
        #expect(reporter.lines(.stdout) == ["tool ran"])
    }

    @Test func aRelativePathResolvesAgainstTheWorkingDirectory() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        try directory.script("apply.sh", "echo applied; exit 4")
        let reporter = RecordingReporter()
        let request = UpdateRunRequest.running(.argv(["./apply.sh"]), workingDirectory: directory.path)
        #expect(await outcomeOfFreshExecutable(request, on: backend, reporter: reporter) == .exited(4))
        #expect(reporter.lines(.stdout) == ["applied"])
    }

    @Test func argumentsArePassedAsTheyAre() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.argv(["/bin/sh", "-c", "for a in \"$@\"; do echo \"[$a]\"; done", "sh", "a b", "", "$HOME"])),
                                    reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == ["[a b]", "[]", "[$HOME]"])
    }

    @Test func aShellStringRunsWithBinSh() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("echo 'a b' | tr a-z A-Z; echo \"$0\"")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == ["A B", "/bin/sh"])
    }

    @Test func aMissingCommandFailsToStartWithItsName() async {
        let running = backend.start(.running(.argv(["installtop-no-such-command", "x"])), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .failedToStart("cannot run installtop-no-such-command: No such file or directory"))
    }

    @Test func aMissingPathFailsToStart() async {
        let running = backend.start(.running(.argv(["/nonexistent/installtop/tool"])), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .failedToStart("cannot run /nonexistent/installtop/tool: No such file or directory"))
    }

    @Test func aFileThatIsNotExecutableFailsToStart() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        try directory.script("plain.sh", "echo never", permissions: 0o644)
        let running = backend.start(.running(.argv(["./plain.sh"]), workingDirectory: directory.path), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .failedToStart("cannot run ./plain.sh: Permission denied"))
    }

    @Test func aNonExecutableNameInPathFailsWithPermissionDenied() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        try directory.script("installtop-plain", "echo never", permissions: 0o644)
        let request = UpdateRunRequest.running(.argv(["installtop-plain"]), environment: ["PATH": directory.path])
        let running = backend.start(request, reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .failedToStart("cannot run installtop-plain: Permission denied"))
    }

    @Test func aFileInNoExecutableFormatFailsToStart() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        let file = directory.file("garbage")
        try Data([0x7F, 0x45, 0x4C, 0x46, 0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: file))
        try ExecutableFile.makeExecutable(file)
        let outcome = await outcomeOfFreshExecutable(.running(.argv([file])), on: backend, reporter: RecordingReporter())
        #expect(outcome == .failedToStart("cannot run \(file): Exec format error"))
    }

    @Test func aMissingWorkingDirectoryIsNamed() async {
        let running = backend.start(.running(.shell("true"), workingDirectory: "/nonexistent/installtop-dir"), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running)
            == .failedToStart("cannot run /bin/sh: working directory /nonexistent/installtop-dir: No such file or directory"))
    }

    @Test func anEmptyArgvFailsToStart() async {
        let running = backend.start(.running(.argv([])), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .failedToStart("cannot run an empty command"))
    }

    @Test func terminateAndKillOnACommandThatNeverStartedDoNothing() async {
        let running = backend.start(.running(.argv([])), reporter: RecordingReporter())
        running.terminate()
        running.kill()
        #expect(await settledOutcome(of: running) == .failedToStart("cannot run an empty command"))
    }
}
