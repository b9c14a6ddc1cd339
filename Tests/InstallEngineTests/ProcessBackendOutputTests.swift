import InstallEngine
import Testing

@Suite("ProcessBackend: stdout and stderr lines")
struct ProcessBackendOutputTests {
    private let backend = ProcessBackend()

    @Test func linesOfBothStreamsArriveInOrderPerStream() async {
        let reporter = RecordingReporter()
        let script = "i=0; while [ $i -lt 300 ]; do echo out $i; echo err $i >&2; i=$((i+1)); done"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == (0..<300).map { "out \($0)" })
        #expect(reporter.lines(.stderr) == (0..<300).map { "err \($0)" })
        #expect(reporter.channelReports.isEmpty)
    }

    @Test func carriageReturnsEmptyLinesAndAnUnfinishedLastLine() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("printf 'dos\\r\\n\\nmid\\rdle\\nlast without newline'")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == ["dos", "", "mid\rdle", "last without newline"])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("printf 'caf\\303\\251 \\377\\376 ok\\n'")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == ["café \u{FFFD}\u{FFFD} ok"])
    }

    @Test func aOneMegabyteLineWithoutNewlineIsCutNotKept() async {
        let reporter = RecordingReporter()
        let script = "head -c 1048576 /dev/zero | tr '\\0' x; echo; echo after"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        let lines = reporter.lines(.stdout)
        #expect(lines.count == 2)
        #expect(lines.first == String(repeating: "x", count: 16 * 1024) + " …[cut 1032192 bytes]")
        #expect(lines.last == "after")
    }

    @Test func aLineCutInsideACharacterKeepsOnlyWholeCharacters() async {
        let reporter = RecordingReporter()
        let backend = ProcessBackend(maxLineBytes: 8)
        // "ab" then three 3-byte characters: the 8-byte cut falls inside the third one.
        let running = backend.start(.running(.shell("printf 'ab\\342\\202\\254\\342\\202\\254\\342\\202\\254\\n'")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        #expect(reporter.lines(.stdout) == ["ab€€ …[cut 3 bytes]"])
    }

    @Test func fiftyMegabytesOfOutputAreReportedLineByLineWithoutBuffering() async {
        let reporter = CountingReporter()
        // 500,000 lines of 99 characters plus a newline, and a 5 MB line without any.
        let line = String(repeating: "0123456789", count: 10).dropLast()
        let script = "yes '\(line)' | head -n 500000; head -c 5000000 /dev/zero | tr '\\0' y"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        #expect(await settledOutcome(of: running, within: .seconds(300)) == .exited(0))
        let counts = reporter.counts
        #expect(counts.stdoutLines == 500_001)
        #expect(counts.longestLine <= 16 * 1024 + 40)
        #expect(counts.longestLine > 16 * 1024)
    }
}
