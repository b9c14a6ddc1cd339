import Foundation
import Glibc
import InstallEngine
import Testing

@Suite("ProcessBackend: what a child process gets")
struct ProcessBackendEnvironmentTests {
    private let backend = ProcessBackend()

    /// Runs `script` and returns its stdout lines, expecting exit 0.
    private func stdout(of request: UpdateRunRequest) async -> [String] {
        let reporter = RecordingReporter()
        let running = backend.start(request, reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        return reporter.lines(.stdout)
    }

    @Test func theInstalltopVariablesAndTheUpdatesEnvironmentAreSet() async {
        let request = UpdateRunRequest.running(
            .shell("echo \"$INSTALLTOP_PROGRESS_FD|$INSTALLTOP_UPDATE_ID|$INSTALLTOP_OPERATION|$INSTALLTOP_JOB|$CUSTOM_SETTING\""),
            id: "openssl", environment: ["CUSTOM_SETTING": "a value = with spaces"], jobName: "Nightly patches")
        #expect(await stdout(of: request) == ["3|openssl|install|Nightly patches|a value = with spaces"])
    }

    @Test func theParentsEnvironmentIsInherited() async {
        let parentPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        #expect(await stdout(of: .running(.shell("echo \"$PATH\""))) == [parentPath])
    }

    @Test func theUpdatesEnvironmentCannotReplaceTheInstalltopVariables() async {
        let request = UpdateRunRequest.running(.shell("echo \"$INSTALLTOP_PROGRESS_FD $INSTALLTOP_UPDATE_ID\""),
                                               id: "real", environment: ["INSTALLTOP_PROGRESS_FD": "9", "INSTALLTOP_UPDATE_ID": "fake"])
        #expect(await stdout(of: request) == ["3 real"])
    }

    @Test func anUninstallSaysUninstall() async {
        let request = UpdateRunRequest.running(.shell("echo $INSTALLTOP_OPERATION"), operation: .uninstall)
        #expect(await stdout(of: request) == ["uninstall"])
    }

    @Test func theWorkingDirectoryIsTheUpdates() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        let expected = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        #expect(await stdout(of: .running(.shell("pwd -P"), workingDirectory: directory.path)) == [expected])
    }

    @Test func withoutAWorkingDirectoryTheChildInheritsInstalltops() async {
        let expected = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        #expect(await stdout(of: .running(.shell("pwd -P"))) == [expected])
    }

    @Test func stdinIsDevNullAndOnlyDescriptorsZeroToThreeAreOpen() async {
        // A second update runs meanwhile so that its pipes exist and could leak.
        let other = backend.start(.running(.shell("sleep 300")), reporter: RecordingReporter())
        defer { other.kill() }
        let lines = await stdout(of: .running(.shell("readlink /proc/$$/fd/0; cd /proc/$$/fd && echo *")))
        #expect(lines.first == "/dev/null")
        // The shell's glob opens one directory descriptor of its own while it lists.
        let descriptors = Set((lines.last ?? "").split(separator: " ").map(String.init))
        #expect(descriptors.isSuperset(of: ["0", "1", "2", "3"]))
        #expect(descriptors.count <= 5)
    }

    @Test func theChildLeadsItsOwnProcessGroup() async {
        let lines = await stdout(of: .running(.shell("echo $$; cut -d' ' -f5 /proc/$$/stat")))
        #expect(lines.count == 2)
        #expect(lines.first == lines.last)
        #expect(lines.first != String(getpgrp()))
    }

    @Test func theChildStartsWithNoBlockedOrIgnoredSignals() async throws {
        // Block and ignore SIGUSR2 around the start only; both are restored right after.
        var usr2 = sigset_t()
        sigemptyset(&usr2)
        sigaddset(&usr2, SIGUSR2)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &usr2, &previousMask)
        let previousHandler = signal(SIGUSR2, SIG_IGN)
        let reporter = RecordingReporter()
        // grep reads its own masks: a shell would block signals around its forks.
        let running = backend.start(.running(.argv(["grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"])), reporter: reporter)
        signal(SIGUSR2, previousHandler)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        #expect(await settledOutcome(of: running) == .exited(0))

        let masks = Dictionary(uniqueKeysWithValues: reporter.lines(.stdout).compactMap { line -> (String, UInt64)? in
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let bits = UInt64(parts[1], radix: 16) else { return nil }
            return (String(parts[0]), bits)
        })
        #expect(masks["SigBlk:"] == 0)
        // glibc's posix_spawn always leaves its two internal signals (32, 33) ignored.
        let glibcInternal: UInt64 = 1 << 31 | 1 << 32
        #expect(try #require(masks["SigIgn:"]) & ~glibcInternal == 0)
    }
}
