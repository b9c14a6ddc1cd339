import Foundation
import Testing

/// `--plain`: a line when each update starts and ends, a summary table, and child text made
/// visible rather than sent to the terminal.
@Suite("run --plain")
struct PlainOutputTests {
    @Test("start and end lines per update, and a summary table with ids and results")
    func linesAndSummary() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("two.yaml", """
            jobs:
              - name: Tools
                updates:
                  - {id: jq, title: jq 1.6, install: 'echo "progress 100 installed" >&3'}
                  - {id: curl, title: curl 7.88, install: 'echo "curl: broken" >&2; exit 5'}
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "two.yaml"], in: folder)

        #expect(result.status == 1)
        let lines = result.stdoutLines
        let clock = #/^\d\d:\d\d:\d\d /#
        func line(_ text: String) -> String? { lines.first { $0.contains(text) } }
        let jqStarted = try #require(line("[1 1/2] jq started: jq 1.6"), "stdout: \(result.stdout)")
        #expect(jqStarted.prefixMatch(of: clock) != nil, "no clock: \(jqStarted)")
        #expect(line("[1 1/2] jq succeeded in ") != nil, "stdout: \(result.stdout)")
        #expect(line("[1 2/2] curl started: curl 7.88") != nil)
        let curlEnded = try #require(line("[1 2/2] curl failed in "), "stdout: \(result.stdout)")
        #expect(curlEnded.contains("exited with status 5") && curlEnded.contains("0x8024200B"), "\(curlEnded)")
        #expect(lines.contains("    | curl: broken"), "the failure's output tail is missing: \(result.stdout)")
        // A job with a failed update reads as failed; WUA's succeededWithErrors stays in JSON.
        #expect(line("job 1 Tools: failed (1 succeeded, 1 failed)") != nil, "stdout: \(result.stdout)")

        let header = try #require(lines.first { $0.hasPrefix("UPDATE") })
        #expect(header.split(separator: " ", omittingEmptySubsequences: true) == ["UPDATE", "RESULT", "EXIT", "TIME", "TITLE"],
                "no REBOOT column where no update asked for one: \(header)")
        let summaryLines = (result.stdout.components(separatedBy: "\nSummary\n").last ?? "").split(separator: "\n")
        #expect(summaryLines.filter { $0.contains("Tools") } == ["job 1 Tools"], "the job's name once in the summary: \(result.stdout)")
        let jq = try #require(result.summaryRow(of: "jq"), "stdout: \(result.stdout)")
        #expect(jq.job == "Tools" && jq.result == "succeeded" && jq.exit == "0" && jq.reason.isEmpty, "\(jq)")
        #expect(jq.line.hasSuffix("  1.6"), "the title without the id it repeats: \(jq)")
        let curl = try #require(result.summaryRow(of: "curl"))
        #expect(curl.result == "failed" && curl.exit == "5" && curl.reason == "exited with status 5", "\(curl)")
        #expect(!curl.line.contains("0x8024200B"), "the HRESULT is for JSON and the history: \(curl)")
        #expect(lines.suffix(2) == ["1 job, 2 updates: 1 succeeded, 1 failed", "exit 1: 1 update failed in 1 job"], "stdout: \(result.stdout)")
    }

    @Test("the summary: with errors in words, `-` for the exit of updates never run and why they did not, and why the run exits 1")
    func summaryOfAStoppedJob() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("stop.yaml", """
            jobs:
              - name: Web servers
                stop_on_failure: true
                updates:
                  - {id: warn, title: Warns, install: 'echo "error disk almost full" >&3'}
                  - {id: breaks, title: Breaks, install: 'exit 3'}
                  - {id: never, title: Never runs, install: 'true'}
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "stop.yaml"], in: folder)

        #expect(result.status == 1, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(!result.stdout.contains("succeededWithErrors"), "plain output speaks words: \(result.stdout)")
        let warn = try #require(result.summaryRow(of: "warn"), "stdout: \(result.stdout)")
        #expect(warn.job == "Web servers" && warn.result == "with errors" && warn.reason == "reported an error: disk almost full", "\(warn)")
        let never = try #require(result.summaryRow(of: "never"))
        #expect(never.exit == "-" && never.reason.hasPrefix("not started: an earlier update failed"), "\(never)")
        #expect(result.stdoutLines.contains { $0.contains("job 1 Web servers: failed (") }, "stdout: \(result.stdout)")
        #expect(result.summaryExplanation == "exit 1: 1 update failed in 1 job, 1 update succeeded with errors", "stdout: \(result.stdout)")
    }

    @Test("the summary fits the width, 80 and 60 columns: names and titles are cut, a long reason is whole on lines below its row", arguments: [80, 60])
    func summaryFitsTheWidth(columns: Int) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let error = "the mirror at deb.example.org answered 503 Service Unavailable three times in a row, so the package list is stale"
        try folder.write("wide.yaml", """
            jobs:
              - name: Web servers of the north data centre
                updates:
                  - {id: nginx-light-configuration-refresh, title: Refresh the nginx-light configuration of every virtual host, install: 'echo "error \(error)" >&3; exit 2'}
                  - {id: ok, title: Short, install: 'true'}
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "wide.yaml"], in: folder, environment: ["COLUMNS": String(columns)])

        #expect(result.status == 1, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let summary = result.stdout.components(separatedBy: "\nSummary\n").last ?? ""
        let wide = summary.split(separator: "\n").map(String.init).filter { $0.count > columns }
        #expect(wide.isEmpty, "lines wider than \(columns): \(wide)\n\(summary)")
        let row = try #require(result.summaryRow(of: "nginx-light-configuration-refresh"), "\(summary)")
        #expect(row.result == "failed" && row.reason == "exited with status 2: \(error)", "\(row)\n\(summary)")
        #expect(result.summaryRow(of: "ok")?.result == "succeeded", "\(summary)")
    }

    @Test("a job's long name is on one line of its own, once, and leaves the titles' versions whole at 80 columns")
    func longJobNameShownOnce() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let name = "apt install nginx-light cowsay fortune-mod redis-server memcached libnginx-mod-http-geoip"
        let titles = ["nginx-light": "nginx-light 1.22.1-9 → 1.22.1-9+deb12u1", "cowsay": "cowsay 3.03+dfsg2-8 → 3.03+dfsg2-8.1",
                      "fortune-mod": "fortune-mod 1:1.99.1-7.3"]
        try folder.write("long.yaml", """
            jobs:
              - name: \(name)
                updates:
            \(titles.keys.sorted().map { "      - {id: \($0), title: '\(titles[$0]!)', install: 'true'}" }.joined(separator: "\n"))
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "long.yaml"], in: folder, environment: ["COLUMNS": "80"])

        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let summary = (result.stdout.components(separatedBy: "\nSummary\n").last ?? "").split(separator: "\n").map(String.init)
        #expect(summary.filter { $0.contains("apt install nginx-light") }.count == 1, "\(summary.joined(separator: "\n"))")
        #expect(summary.contains("job 1 apt install nginx-light cowsay fortune-mod redis-server memcached"), "\(summary.joined(separator: "\n"))")
        for (id, title) in titles {
            let row = try #require(result.summaryRow(of: id), "\(summary.joined(separator: "\n"))")
            #expect(row.job == name && row.update == id && row.result == "succeeded" && row.line.hasSuffix("  " + title.dropFirst(id.count + 1)),
                    "the versions whole: \(row)")
        }
        #expect(summary.allSatisfy { $0.count <= 80 }, "\(summary.joined(separator: "\n"))")
    }

    @Test("updates that never ran with the same outcome are one line, their names wrapped below it; one or two stay rows")
    func neverRunUpdatesGrouped() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let never = (1...12).map { "package-number-\($0)" }
        try folder.write("stop.yaml", """
            jobs:
              - name: Stops early
                stop_on_failure: true
                updates:
                  - {id: breaks, title: Breaks, install: 'exit 3'}
            \(never.map { "      - {id: \($0), title: \($0) 1.0, install: 'true'}" }.joined(separator: "\n"))
              - name: Stops late
                stop_on_failure: true
                updates:
                  - {id: late-breaks, title: Breaks, install: 'exit 3'}
                  - {id: late-never, title: Never runs, install: 'true'}
            """)

        let result = try await installtop(["run", "--plain", "--no-history", "stop.yaml"], in: folder, environment: ["COLUMNS": "60"])

        #expect(result.status == 1, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let summary = (result.stdout.components(separatedBy: "\nSummary\n").last ?? "").split(separator: "\n").map(String.init)
        let text = summary.joined(separator: "\n")
        let group = try #require(summary.firstIndex { $0.hasPrefix("12 not started: ") }, "\(text)")
        #expect(summary[group] == "12 not started: an earlier update failed and the job stops"
                && summary[group + 1] == "    on failure", "the outcome wraps like any long line: \(text)")
        let names = summary[(group + 2)...].prefix { $0.hasPrefix("    ") }
        #expect(names.count > 1 && names.allSatisfy { $0.count <= 60 }, "the names wrap within 60 columns: \(text)")
        #expect(names.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == never.joined(separator: ", "), "\(text)")
        #expect(!summary.contains { $0.hasPrefix("package-number-") }, "no row of its own: \(text)")
        let row = try #require(result.summaryRow(of: "package-number-7"), "\(text)")
        #expect(row.job == "Stops early" && row.result == "not started" && row.reason.hasPrefix("not started: an earlier update failed"), "\(row)")
        let late = try #require(result.summaryRow(of: "late-never"), "\(text)")
        #expect(late.job == "Stops late" && late.line.hasPrefix("late-never ") && late.reason.hasPrefix("not started: an earlier"), "\(late)")
        #expect(result.stdoutLines.suffix(2).first == "2 jobs, 15 updates: 2 failed, 13 aborted", "\(text)")
    }

    @Test("escape sequences in child output and titles show as text; no ESC or BEL byte reaches stdout")
    func hostileOutput() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.script("hostile.sh", #"""
            printf 'set title \033]0;pwned\007 now\n'
            printf 'clear \033[2J screen\n' >&2
            exit 1
            """#)
        try folder.write("hostile.yaml", #"""
            jobs:
              - name: "Hostile \e[31mjob"
                updates:
                  - id: hostile
                    title: "Evil \e]0;title\a update"
                    install: [./hostile.sh]
            """#)

        let result = try await installtop(["run", "--plain", "--no-history", "hostile.yaml"], in: folder)

        #expect(result.status == 1)
        let lines = result.stdoutLines
        #expect(lines.contains("    | set title ␛]0;pwned␇ now"), "stdout: \(result.stdout)")
        #expect(lines.contains("    | clear ␛[2J screen"), "stdout: \(result.stdout)")
        #expect(lines.contains { $0.hasSuffix("hostile started: Evil ␛]0;title␇ update") }, "stdout: \(result.stdout)")
        #expect(lines.contains { $0.contains("job 1 Hostile ␛[31mjob: failed") }, "stdout: \(result.stdout)")
        #expect(result.summaryRow(of: "hostile")?.line.contains("Evil ␛]0;") == true, "stdout: \(result.stdout)")
        #expect(!result.stdoutBytes.contains(0x1B), "a raw ESC reached stdout")
        #expect(!result.stdoutBytes.contains(0x07), "a raw BEL reached stdout")
    }
}
