import Foundation
import InstallEngine
import InstallHistory
import Testing

@Suite("installtop history: the text table")
struct HistoryTableTests {
    @Test func columnsAreAlignedNewestFirstAsGiven() {
        let entries = [
            HistoryEntry(
                operation: .install, resultCode: .failed, hResult: .installerHung, reason: "timed out after 30s",
                startedAt: EngineEvents.time(3600), endedAt: EngineEvents.time(3630), updateID: "kernel",
                title: "Linux 6.1", jobName: "Weekly", durationMs: 30_000),
            HistoryEntry(
                operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0),
                endedAt: EngineEvents.time(0.85), updateID: "openssl", title: "OpenSSL 3.0.15 security fix",
                jobName: "Security updates", durationMs: 850),
            HistoryEntry(
                operation: .install, resultCode: .inProgress, startedAt: EngineEvents.time(7200), endedAt: nil,
                updateID: "tz", title: "Time zones", jobName: "Weekly", isRunning: true),
        ]
        #expect(HistoryTable.render(entries) == """
            DATE (UTC)           RESULT                        UPDATE   TITLE                        JOB               DURATION
            2023-11-14 23:13:20  failed (timed out after 30s)  kernel   Linux 6.1                    Weekly            30.0s
            2023-11-14 22:13:20  succeeded                     openssl  OpenSSL 3.0.15 security fix  Security updates  850ms
            2023-11-15 00:13:20  running                       tz       Time zones                   Weekly            -

            """)
        #expect(HistoryTable.render([]) == "")
    }

    @Test func controlAndBidiCharactersCannotReachTheTerminal() {
        let entry = HistoryEntry(
            operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: nil,
            updateID: "x", title: "evil\u{1B}[2J\u{202E}txt.exe\ttab", jobName: String(repeating: "j", count: 40))
        let row = HistoryTable.render([entry]).components(separatedBy: "\n")[1]
        #expect(!row.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\t" })
        #expect(row.contains("evil\u{FFFD}[2J\u{FFFD}txt.exe tab"))
        #expect(row.contains(String(repeating: "j", count: 31) + "…"))
    }

    @Test func durationsReadNaturally() {
        let cases: [(Duration, String)] = [
            (.milliseconds(0), "0ms"), (.milliseconds(999), "999ms"), (.milliseconds(12_340), "12.3s"),
            (.seconds(184), "3m04s"), (.seconds(3720), "1h02m"),
        ]
        for (duration, text) in cases {
            let entry = HistoryEntry(
                operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: nil,
                updateID: "x", title: "x", jobName: "j", durationMs: Int64(duration.components.seconds * 1000)
                    + duration.components.attoseconds / 1_000_000_000_000_000)
            #expect(HistoryTable.render([entry]).hasSuffix("  \(text)\n"), "\(text)")
        }
    }
}
