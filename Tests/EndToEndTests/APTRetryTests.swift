import APTTestSupport
import Foundation
import TestProcessSupport
import Testing

/// A package configured twice in one apt run (apt 2.6, Documentation/PACKAGE-FACTS.md): apt configures an essential
/// package in a dpkg run of its own right after unpacking it; its postinst fails on the first
/// run only; with `DPkg::StopOnError=false` apt goes on, and its last `dpkg --configure
/// --pending` configures it again (and, after it, the package that needs it), so dpkg ends with both
/// installed while apt exits 100. Through the real binary in a private root, with every core
/// busy: the package's result is dpkg's final state, and both attempts' lines, the failed one's
/// script error among them, are its own in `--json` and in the history.
@Suite("installtop apt: a package configured twice", .serialized)
struct APTRetryTests {
    private static let flaky = TestPackage(name: "lab-flaky", postinst: """
        if [ ! -e "$DPKG_ROOT/flaky-once" ]; then
            touch "$DPKG_ROOT/flaky-once"
            echo "lab-flaky: cannot start lab-flaky.service (first attempt)" >&2
            exit 1
        fi
        echo "lab-flaky: started on the second attempt"
        """, essential: true)
    private static let packages = [
        flaky, TestPackage(name: "lab-user", depends: "lab-flaky", postinst: "echo \"lab-user: configured\""),
        TestPackage(name: "lab-after", postinst: "echo \"lab-after: configured\""),
    ]

    @Test("Both attempts' lines are the package's, the first one's error is said, and its result is dpkg's: installed, with errors")
    func configuredTwice() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish(Self.packages)
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let hogs = try CPUHogs()
        defer { hogs.stop() }
        let result = try await installtop(
            ["apt", "install", "lab-flaky", "lab-user", "lab-after", "--yes", "--json", "--json-logs", "--history-db", database,
             "--apt-config", apt.configuration], in: folder)
        hogs.stop()

        let states = try apt.states()
        #expect(["lab-flaky", "lab-user", "lab-after"].allSatisfy { states[$0]?.status == "ii" }, "the retry did not happen: \(states)")
        let events = try result.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" }, "\(result.stdout) \(result.stderr)")
        let ids = (queued.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let flaky = try #require(ids.firstIndex(of: "lab-flaky"))
        let completed = try #require(events.first { $0.name == "update.completed" && $0.index == flaky })
        #expect(completed.string("result") == "succeededWithErrors", "\(completed)")
        #expect(completed.string("reason")?.contains("configured again: dpkg shows it installed at 1.0 at the end; the first attempt failed: "
            + "installed lab-flaky package post-installation script subprocess returned error exit status 1") == true, "\(completed)")
        let user = try #require(events.first { $0.name == "update.completed" && $0.string("id") == "lab-user" })
        // apt configures lab-user once, in its last run, after lab-flaky's second attempt.
        #expect(user.string("result") == "succeeded", "\(user)")

        // Both attempts' lines are lab-flaky's, the first attempt's error among them.
        let lines = events.filter { $0.name == "log" && $0.index == flaky }.compactMap { $0.string("line") }
        #expect(lines.filter { $0.hasPrefix("Setting up lab-flaky ") }.count == 2, "\(lines)")
        for line in ["lab-flaky: cannot start lab-flaky.service (first attempt)", "dpkg: error processing package lab-flaky (--configure):",
                     "lab-flaky: started on the second attempt"] {
            #expect(lines.contains(line), "\(line): \(lines)")
        }
        let elsewhere = events.filter { $0.name == "log" && $0.index != flaky }.compactMap { $0.string("line") }
        #expect(!elsewhere.contains { $0.hasPrefix("lab-flaky:") || $0.hasPrefix("Setting up lab-flaky ") }, "\(elsewhere)")

        let history = try await installtop(["history", "--history-db", database, "--json", "--limit", "10"], in: folder)
        let row = try #require(try history.jsonEvents().first { $0.string("updateId") == "lab-flaky" }, "\(history.stdout) \(history.stderr)")
        let tail = row.string("outputTail") ?? ""
        #expect(tail.contains("lab-flaky: cannot start lab-flaky.service (first attempt)") && tail.contains("lab-flaky: started on the second attempt"),
                "\(tail)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
