import Foundation
import InstallEngine
@testable import InstallHistory
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
        // 80 columns (not a terminal): date to the minute, result word, time, update, reason.
        #expect(HistoryTable.render(entries) == """
            DATE (UTC)        RESULT     TIME   UPDATE   REASON
            2023-11-14 23:13  failed     30.0s  kernel   timed out after 30s
            2023-11-14 22:13  succeeded  850ms  openssl
            2023-11-15 00:13  running    -      tz

            """)
        // Wider terminals get the seconds, the job and the title.
        #expect(HistoryTable.render(entries, width: 160) == """
            DATE (UTC)           RESULT     TIME   UPDATE   JOB               TITLE                        REASON
            2023-11-14 23:13:20  failed     30.0s  kernel   Weekly            Linux 6.1                    timed out after 30s
            2023-11-14 22:13:20  succeeded  850ms  openssl  Security updates  OpenSSL 3.0.15 security fix
            2023-11-15 00:13:20  running    -      tz       Weekly            Time zones

            """)
        #expect(HistoryTable.render([]) == "")
    }

    @Test("a success's reason is shown as --json gives it (a package settled from dpkg's state, the last package before a stop)")
    func aSuccessWithAReasonShowsIt() {
        let settled = HistoryEntry(
            operation: .install, resultCode: .succeeded, reason: "the job stopped after it, as asked", startedAt: EngineEvents.time(0),
            endedAt: EngineEvents.time(1), updateID: "lab-app", title: "lab-app 1.0 → 2.0", jobName: "apt upgrade", durationMs: 1000)
        #expect(HistoryTable.render([settled]) == """
            DATE (UTC)        RESULT     TIME  UPDATE   REASON
            2023-11-14 22:13  succeeded  1.0s  lab-app  the job stopped after it, as asked

            """)
    }

    @Test("at 80 columns package names and old → new versions stay whole: the reason goes below its row, the date loses its year, a long version goes on at its arrow")
    func namesAndVersionsFirstAt80Columns() {
        func package(_ name: String, _ old: String, _ new: String, at seconds: Double, failing reason: String? = nil) -> HistoryEntry {
            HistoryEntry(
                operation: .install, resultCode: reason == nil ? .succeeded : .failed, reason: reason,
                startedAt: EngineEvents.time(seconds), endedAt: EngineEvents.time(seconds + 2), updateID: name,
                title: "\(name) \(old) → \(new)", packageAction: .upgrade, oldVersion: old, newVersion: new,
                jobName: "apt install openjdk-17-jdk-headless nginx-light cowsay", durationMs: 2_000)
        }
        let entries = [
            package("openjdk-17-jdk-headless", "17.0.13+11-1~deb12u1", "17.0.14+7-1~deb12u1", at: 30,
                    failing: "dpkg: error processing package openjdk-17-jdk-headless (--configure): installed post-installation script subprocess returned error exit status 1"),
            package("nginx-light", "1.22.1-9", "1.22.1-9+deb12u1", at: 20),
            package("cowsay", "3.03+dfsg2-8", "3.03+dfsg2-8.1", at: 10),
        ]
        let text = HistoryTable.render(entries, width: 80)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(lines[0].hasPrefix("DATE (UTC)") && lines[0].contains("UPDATE") && lines[0].contains("VERSION") && !lines[0].contains("REASON"), "\(text)")
        for entry in entries {
            guard let row = lines.firstIndex(where: { $0.contains(" \(entry.updateID) ") }) else {
                Issue.record("\(entry.updateID) is not whole: \(text)")
                continue
            }
            // The new version on the row, or under the old one on the next line.
            let shown = lines[row] + "\n" + (row + 1 < lines.count ? lines[row + 1] : "")
            #expect(shown.contains(entry.oldVersion!) && shown.contains(entry.newVersion!), "\(entry.updateID): \(text)")
            #expect(lines[row].hasPrefix("11-14 22:13") || lines[row].hasPrefix("11-14 22:14"), "the date to the minute, without its year: \(lines[row])")
        }
        // The reason's lines are indented by 4; a version's new half stands under the old one.
        let reason = lines.filter { $0.hasPrefix("    ") && !$0.hasPrefix("     ") }.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(reason == entries[0].reason, "the reason whole, below its row: \(text)")
        // Wide enough for everything: one line per entry, the reason a column.
        let wide = HistoryTable.render(entries, width: 200).split(separator: "\n")
        #expect(wide.count == 4 && wide[0].hasSuffix("REASON") && wide[1].contains("17.0.13+11-1~deb12u1 → 17.0.14+7-1~deb12u1"), "\(wide)")
    }

    @Test func controlAndBidiCharactersCannotReachTheTerminal() {
        let entry = HistoryEntry(
            operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: nil,
            updateID: "x", title: "evil\u{1B}[2J\u{202E}txt.exe\ttab", jobName: String(repeating: "j", count: 40))
        let row = HistoryTable.render([entry], width: 160).components(separatedBy: "\n")[1]
        #expect(!row.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\t" })
        #expect(row.contains("evil\u{FFFD}[2J\u{FFFD}txt.exe tab"))
        #expect(row.contains(String(repeating: "j", count: 19) + "…"))
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
            #expect(HistoryTable.render([entry]).components(separatedBy: "\n")[1].contains("succeeded  \(text) "), "\(text)")
        }
    }

    @Test("every line fits 80 columns; a cut reason closes the brackets it left open; nothing nests in RESULT")
    func fitsTheWidthWithBalancedBrackets() {
        let entry = HistoryEntry(
            operation: .install, resultCode: .aborted, hResult: .operationCancelled,
            reason: "aborted while running (exited with status 130 (rolled back by its TERM trap))",
            startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(5), updateID: String(repeating: "long-update-id-", count: 4),
            title: String(repeating: "A very long title ", count: 10), jobName: "Database migration", durationMs: 5000)
        for width in [60, 80, 100, 130, 200] {
            let lines = HistoryTable.render([entry], width: width).split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= width }, "\(width): \(lines)")
            let row = String(lines[1])
            #expect(row.count { $0 == "(" } == row.count { $0 == ")" }, "\(width): \(row)")
            #expect(row.contains("  aborted  "), "the result is a word: \(row)")
        }
        #expect(HistoryTable.fit("killed (by signal 15 (Terminated))", to: 16) == "killed (by sig…)")
    }
}
