import Foundation
import Testing

/// `installtop run --json`: the event contract of Documentation/JSON-EVENTS.md, per job and per update.
@Suite("run --json")
struct JSONEventsTests {
    @Test("events per job: queued, started, per update started/progress/completed, completed; exit 1 beats reboot")
    func eventSequence() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("mixed.yaml", """
            jobs:
              - name: Security updates
                updates:
                  - id: openssl
                    title: OpenSSL fix
                    install: 'echo "progress 50 half" >&3'
                  - id: broken
                    title: Broken package
                    install: 'echo "dpkg: error" >&2; exit 3'
              - name: Kernel
                updates:
                  - id: kernel
                    title: Kernel 6.1
                    install: 'echo reboot-required >&3'
            """)
        let before = Date()

        let result = try await installtop(["run", "--json", "--no-history", "mixed.yaml"], in: folder)

        let after = Date()
        #expect(result.status == 1, "a failure wins over a reboot; stderr: \(result.stderr)")
        let events = try result.jsonEvents()
        for event in events { expectTime(of: event, between: before, and: after) }

        let first = events.filter { $0.job == 1 }
        #expect(first.map(\.name) == [
            "job.queued", "job.started",
            "update.started", "progress", "update.completed",
            "update.started", "update.completed",
            "job.completed",
        ], "job 1 events: \(first)")
        guard first.count == 8 else { return }
        #expect(first[0].string("name") == "Security updates")
        #expect(first[0].string("operation") == "install")
        let updates = first[0].fields["updates"] as? [[String: Any]] ?? []
        #expect(updates.map { $0["id"] as? String } == ["openssl", "broken"])
        #expect(updates.map { ($0["index"] as? NSNumber)?.intValue } == [0, 1])
        #expect(updates.map { $0["title"] as? String } == ["OpenSSL fix", "Broken package"])

        #expect(first[2].index == 0 && first[2].string("id") == "openssl")
        #expect(first[3].index == 0)
        #expect(first[3].double("updatePercent") == 50)
        #expect(first[3].double("jobPercent") == 25)
        #expect(first[3].string("message") == "half")
        expectCompleted(first[4], index: 0, id: "openssl", code: 2, result: "succeeded",
                        hResult: "0x00000000", unmapped: 0, reboot: false)

        #expect(first[5].index == 1 && first[5].string("id") == "broken")
        expectCompleted(first[6], index: 1, id: "broken", code: 4, result: "failed",
                        hResult: "0x8024200B", unmapped: 3, reboot: false)
        #expect(first[7].int("resultCode") == 3 && first[7].string("result") == "succeededWithErrors")
        #expect(first[7].bool("rebootRequired") == false)

        let second = events.filter { $0.job == 2 }
        #expect(second.map(\.name) == ["job.queued", "job.started", "update.started", "update.completed", "job.completed"],
                "job 2 events: \(second)")
        guard second.count == 5 else { return }
        expectCompleted(second[3], index: 0, id: "kernel", code: 2, result: "succeeded",
                        hResult: "0x00000000", unmapped: 0, reboot: true)
        #expect(second[4].string("result") == "succeeded" && second[4].bool("rebootRequired") == true)

        // Job 2 starts only after job 1 completed (concurrency 1).
        let names = events.map { "\($0.job ?? 0) \($0.name)" }
        let firstCompleted = try #require(names.firstIndex(of: "1 job.completed"))
        let secondStarted = try #require(names.firstIndex(of: "2 job.started"))
        #expect(firstCompleted < secondStarted)
    }

    @Test("20,000 progress lines are coalesced, and the last one (100 %) is kept")
    func progressCoalescing() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.script("flood.sh", """
            seq 1 20000 | awk '{ printf "progress %.3f step %d\\n", $1 / 200, $1 }' >&3
            """)
        try folder.write("flood.yaml", """
            jobs:
              - name: Flood
                updates:
                  - id: flood
                    title: Many progress lines
                    install: [./flood.sh]
            """)

        let result = try await installtop(["run", "--json", "--no-history", "flood.yaml"], in: folder)

        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let events = try result.jsonEvents()
        let progress = events.filter { $0.name == "progress" }
        #expect(!progress.isEmpty)
        #expect(progress.count < 2_000, "\(progress.count) progress events")
        let completed = try #require(events.firstIndex { $0.name == "update.completed" })
        let lastProgress = try #require(events[..<completed].last { $0.name == "progress" })
        #expect(lastProgress.double("updatePercent") == 100)
        #expect(lastProgress.string("message") == "step 20000")
        #expect(events[completed].string("result") == "succeeded")
        // Percentages never go backwards, whatever was dropped.
        let percents = progress.compactMap { $0.double("updatePercent") }
        #expect(percents == percents.sorted())
    }

    @Test("a failed update's reason names the error it reported on fd 3, in JSON and in plain output")
    func reportedErrorInReason() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("failing.yaml", """
            jobs:
              - name: Unpack
                updates:
                  - {id: pkg, title: Package, install: 'echo "error unpack failed" >&3; exit 1'}
            """)

        let json = try await installtop(["run", "--json", "--no-history", "failing.yaml"], in: folder)
        let completed = try #require(try json.jsonEvents().first { $0.name == "update.completed" }, "stdout: \(json.stdout)")
        #expect(completed.string("reason") == "exited with status 1: unpack failed")

        let plain = try await installtop(["run", "--plain", "--no-history", "failing.yaml"], in: folder)
        #expect(plain.stdoutLines.contains { $0.contains("pkg failed in ") && $0.contains("exited with status 1: unpack failed") },
                "stdout: \(plain.stdout)")
    }

    @Test("a timeout sends SIGTERM first: the script's TERM trap runs, and the update still fails as hung")
    func timeoutLetsTheTermTrapRun() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let marker = folder.file("trapped")
        try folder.script("slow.sh", """
            trap 'echo cleaned > "\(marker)"; exit 0' TERM
            while :; do sleep 0.1; done
            """)
        try folder.write("slow.yaml", """
            jobs:
              - name: Slow
                updates:
                  - {id: slow, title: Slow, install: [./slow.sh], timeout: 1s, abort_grace: 60s}
            """)

        let result = try await installtop(["run", "--json", "--no-history", "slow.yaml"], in: folder)

        #expect(FileManager.default.fileExists(atPath: marker), "the TERM trap never ran")
        let completed = try #require(try result.jsonEvents().first { $0.name == "update.completed" }, "stdout: \(result.stdout)")
        #expect(completed.string("result") == "failed")
        #expect(completed.string("hResult") == "0x80242007")
        #expect(completed.string("reason") == "timed out after 1s")
    }

    // MARK: - Helpers

    private func expectCompleted(_ event: JSONEvent, index: Int, id: String, code: Int, result: String,
                                 hResult: String, unmapped: Int, reboot: Bool,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(event.name == "update.completed", sourceLocation: sourceLocation)
        #expect(event.index == index && event.string("id") == id, "\(event)", sourceLocation: sourceLocation)
        #expect(event.int("resultCode") == code, "\(event)", sourceLocation: sourceLocation)
        #expect(event.string("result") == result, "\(event)", sourceLocation: sourceLocation)
        #expect(event.string("hResult") == hResult, "\(event)", sourceLocation: sourceLocation)
        #expect(event.int("unmappedResultCode") == unmapped, "\(event)", sourceLocation: sourceLocation)
        #expect(event.bool("rebootRequired") == reboot, "\(event)", sourceLocation: sourceLocation)
        #expect((event.int("durationMs") ?? -1) >= 0, "\(event)", sourceLocation: sourceLocation)
    }

    /// `time` is RFC 3339 in UTC (`…Z`) and falls within the run.
    private func expectTime(of event: JSONEvent, between start: Date, and end: Date,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let text = event.string("time") ?? ""
        let shape = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/#
        #expect(text.wholeMatch(of: shape) != nil, "time of \(event)", sourceLocation: sourceLocation)
        let parsed = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
        guard let parsed else {
            Issue.record("unparsable time in \(event)", sourceLocation: sourceLocation)
            return
        }
        #expect(parsed >= start.addingTimeInterval(-1) && parsed <= end.addingTimeInterval(1),
                "time outside the run: \(event)", sourceLocation: sourceLocation)
    }
}
