import APTTestSupport
import Foundation
import InstallDrivers
import Testing

/// What `--json` says of a dnf transaction of small packages, through the real binary in a
/// private installroot: every package's bar moves through rpm's phases of it, not from nothing
/// to 100 %, and what a scriptlet writes on stderr is its own package's output. Nothing of the
/// host's rpm or dnf state changes (fingerprinted).
@Suite("installtop dnf: a package's phases", .serialized)
struct DNFPhaseTests {
    /// Each update's percents, in the order `--json` said them.
    private static func percents(_ events: [JSONEvent]) -> [Int: [Double]] {
        var percents: [Int: [Double]] = [:]
        for event in events where event.name == "progress" {
            guard let index = event.index, let percent = event.double("updatePercent") else { continue }
            percents[index, default: []].append(percent)
        }
        return percents
    }

    /// The update ids of `job.queued`, by index.
    private static func ids(_ events: [JSONEvent]) -> [String] {
        (events.first { $0.name == "job.queued" }?.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// What is wrong with one package's percents: they must never go down, end at 100 and
    /// pass through at least two values below it.
    private static func problems(_ id: String, _ percents: [Double]) -> [String] {
        var problems: [String] = []
        if percents != percents.sorted() { problems.append("\(id)'s bar went down: \(percents)") }
        if percents.last != 100 { problems.append("\(id)'s bar did not end at 100: \(percents)") }
        if Set(percents.filter { $0 < 100 }).count < 2 { problems.append("\(id)'s bar had fewer than two steps below 100: \(percents)") }
        return problems
    }

    @Test("Small packages: each bar steps through rpm's phases to 100 in --json, installed, upgraded and removed; what a %post, %preun or %postun writes on stderr is under its own package")
    func phasesAndStderr() async throws {
        let host = HostRPMFingerprint()
        let root = try DNFEndToEnd.lab(DNFTestLab.first + [DNFTestLab.stderrPrinter])
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        // rpm orders lab-print or lab-old after lab-stderr: the line must not go to the next one.
        let install = try await installtop(["dnf", "install", "lab-stderr", "lab-print", "lab-app", "lab-old", "--yes", "--json",
                                            "--json-logs", "--no-history"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(install.status == 0, "\(install.stderr)\n\(install.stdout.suffix(3000))")
        var events = try install.jsonEvents()
        var ids = Self.ids(events)
        #expect(Set(ids) == ["lab-stderr", "lab-print", "lab-app", "lab-lib", "lab-old"], "\(ids)")
        var percents = Self.percents(events)
        for (index, id) in ids.enumerated() {
            for problem in Self.problems(id, percents[index] ?? []) { Issue.record(Comment(rawValue: problem)) }
        }
        let stderrPrinter = try #require(ids.firstIndex(of: "lab-stderr"))
        let logs = events.filter { $0.name == "log" }
        #expect(logs.contains { $0.index == stderrPrinter && $0.string("stream") == "stderr" && $0.string("line") == "lab-stderr: post stderr" },
                "\(logs.map(\.fields))")
        #expect(logs.contains { $0.index == stderrPrinter && $0.string("stream") == "stdout" && $0.string("line") == "lab-stderr: pre" })
        #expect(!logs.contains { $0.index != stderrPrinter && ($0.string("line") ?? "").hasPrefix("lab-stderr") }, "\(logs.map(\.fields))")
        #expect(DNFEndToEnd.completed(events).values.allSatisfy { $0 == "succeeded" }, "\(DNFEndToEnd.completed(events))")

        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.application("2.0")])
        let upgrade = try await installtop(["dnf", "upgrade", "--yes", "--json", "--no-history"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        events = try upgrade.jsonEvents()
        ids = Self.ids(events)
        #expect(Set(ids) == ["lab-lib", "lab-app"], "\(ids)")
        percents = Self.percents(events)
        for (index, id) in ids.enumerated() {
            for problem in Self.problems(id, percents[index] ?? []) { Issue.record(Comment(rawValue: problem)) }
            // The new version's phases, then its old version's cleanup, which rpm runs last.
            #expect(percents[index]?.contains { $0 > 90 && $0 < 100 } == true, "\(id): \(percents[index] ?? [])")
        }
        #expect(root.installedVersions(of: "lab-app") == ["2.0-1"] && root.installedVersions(of: "lab-lib") == ["2.0-1"])

        // A removal: its %preun and %postun write to stderr, rpm erases lab-print beside it.
        let removal = try await installtop(["dnf", "remove", "lab-stderr", "lab-print", "--yes", "--json", "--json-logs", "--no-history"]
                                           + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(removal.status == 0, "\(removal.stderr)")
        events = try removal.jsonEvents()
        ids = Self.ids(events)
        percents = Self.percents(events)
        for (index, id) in ids.enumerated() {
            for problem in Self.problems(id, percents[index] ?? []) { Issue.record(Comment(rawValue: problem)) }
        }
        let removed = try #require(ids.firstIndex(of: "lab-stderr"))
        let removalLogs = events.filter { $0.name == "log" && ($0.string("line") ?? "").hasPrefix("lab-stderr") }
        #expect(removalLogs.map { "\($0.index ?? -1) \($0.string("stream") ?? "") \($0.string("line") ?? "")" }
                    == ["\(removed) stderr lab-stderr: preun stderr", "\(removed) stderr lab-stderr: postun stderr"], "\(removalLogs.map(\.fields))")
        #expect(root.installedVersions(of: "lab-stderr").isEmpty && root.installedVersions(of: "lab-print").isEmpty)
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }
}
