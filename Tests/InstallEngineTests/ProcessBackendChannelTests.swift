import InstallEngine
import Testing

@Suite("ProcessBackend: the progress channel on file descriptor 3")
struct ProcessBackendChannelTests {
    private let backend = ProcessBackend()

    /// Runs a script that writes each of `lines` to fd 3 with its own write. Progress lines
    /// that follow each other may still share a read and be merged, so callers separate them.
    private func channelReports(_ lines: [String], exitStatus: Int32 = 0) async -> [UpdateReport] {
        let writes = lines.map { "printf '%s\\n' '\($0.replacingOccurrences(of: "'", with: "'\\''"))' >&3" }
        let reporter = RecordingReporter()
        let script = writes.joined(separator: "; ") + "; exit \(exitStatus)"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(exitStatus))
        return reporter.channelReports
    }

    @Test func everyKindOfLineIsReportedInOrder() async {
        let reports = await channelReports([
            "progress 10",
            "message Preparing",
            "progress 20.5 Unpacking files",
            "error disk almost full",
            "pmstatus:libc6:42.8571:Unpacking libc6:amd64 (2.36-9)",
            "pmerror:libfoo1:amd64:50.0000:subprocess installed post-installation script returned error exit status 1",
            "dlstatus:3:12.5000:Retrieving file 3 of 8 (1s remaining)",
            "pmconffile:openssh-server:75.0000:'/etc/ssh/sshd_config' '/etc/ssh/sshd_config.dpkg-new' 1 1",
            "reboot-required",
        ])
        #expect(reports == [
            .progress(percent: 10, message: nil),
            .message("Preparing"),
            .progress(percent: 20.5, message: "Unpacking files"),
            .error("disk almost full"),
            .progress(percent: 42.8571, message: "Unpacking libc6:amd64 (2.36-9)"),
            .error("libfoo1:amd64: subprocess installed post-installation script returned error exit status 1"),
            .progress(percent: 12.5, message: "Retrieving file 3 of 8 (1s remaining)"),
            .message("openssh-server: dpkg asks whether to keep configuration file /etc/ssh/sshd_config or install the package's version /etc/ssh/sshd_config.dpkg-new"),
            .rebootRequired,
        ])
    }

    @Test func malformedLinesAreCountedAndNotFatal() async {
        let reports = await channelReports(["progress 150", "hello", "", "progress 40", "pmstatus:broken", "PROGRESS 5"])
        #expect(reports == [
            .malformedChannelLine,
            .malformedChannelLine,
            .progress(percent: 40, message: nil),
            .malformedChannelLine,
            .malformedChannelLine,
        ])
    }

    @Test func progressLinesOfOneWriteAreMergedKeepingTheLatestMessage() async {
        let reporter = RecordingReporter()
        let script = "printf 'progress 10 Downloading\\nprogress 20\\nprogress 30\\nmessage Half way\\nprogress 60\\nprogress 70 Installing\\nprogress 80\\n' >&3"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.channelReports == [
            .progress(percent: 30, message: "Downloading"),
            .message("Half way"),
            .progress(percent: 80, message: "Installing"),
        ])
    }

    @Test func aChannelLineWithoutNewlineAtExitIsStillReported() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("printf 'progress 99 almost' >&3")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.channelReports == [.progress(percent: 99, message: "almost")])
    }

    @Test func aChildThatIgnoresTheChannelStillRuns() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("exec 3>&-; echo closed fd 3")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == ["closed fd 3"])
    }

    @Test func oneHundredThousandProgressLinesEndAtTheLastPercent() async {
        let reporter = CountingReporter()
        let script = "awk 'BEGIN { for (i = 1; i <= 100000; i++) printf \"progress %.3f\\n\", i / 1000 }' >&3"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        #expect(await settledOutcome(of: running, within: .seconds(60)) == .exited(0))
        let counts = reporter.counts
        #expect(counts.lastPercent == 100)
        #expect(counts.progressReports >= 1)
        #expect(counts.progressReports < 100_000)
        #expect(counts.otherReports == 0)
    }
}
