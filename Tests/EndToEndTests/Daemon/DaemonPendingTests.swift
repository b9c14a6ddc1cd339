import APTTestSupport
import Foundation
import Testing

/// The pending snapshot an engine keeps of its root (`serve --apt-config`), asked through its
/// socket: up to date at start, a hold seen at once (each question computes anew), a refresh
/// that is a job of the queue (recorded) and brings the archive's new versions.
@Suite("daemon: the pending snapshot", .serialized)
struct DaemonPendingTests {
    @Test("installtop pending asks serve: the snapshot of its root, a hold, then --refresh as a recorded job bringing new versions, as apt-get -s upgrade says")
    func pendingThroughServe() async throws {
        let host = HostPackageFingerprint()
        let daemon = try DaemonFixture(history: true)
        defer { daemon.remove() }
        let apt = try APTTestRoot(folder: daemon.folder.file("apt"))
        try apt.publish([TestPackage(name: "lab-app"), TestPackage(name: "lab-held"), TestPackage(name: "lab-sec")])
        try apt.aptGet(["-y", "install", "lab-app", "lab-held", "lab-sec"], check: true)
        try await daemon.start(extraArguments: ["--apt-config", apt.configuration])

        let first = try await pendingJSON(daemon)
        #expect((first["packages"] as? [Any])?.isEmpty == true && first["problem"] is NSNull, "\(first)")

        // Newer versions the lists know, and one package held: seen without any job.
        try apt.publish([TestPackage(name: "lab-app", version: "2.0"), TestPackage(name: "lab-held", version: "2.0")])
        try apt.hold("lab-held")
        let held = try await pendingJSON(daemon)
        #expect(names(held["packages"]) == ["lab-app"], "\(held)")
        #expect(names(held["heldBack"]) == ["lab-held"], "\(held)")

        // The security archive offers lab-sec 2.0; the lists learn it only from the refresh.
        try apt.stageSecurity([TestPackage(name: "lab-sec", version: "2.0")])
        #expect(names(try await pendingJSON(daemon)["packages"]) == ["lab-app"], "not before the refresh")
        let refreshStarted = Date()
        let refreshed = try await daemon.run(["pending", "--refresh", "--json"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        let after = try #require(try JSONSerialization.jsonObject(with: Data(refreshed.stdout.utf8)) as? [String: Any])
        let upgrade = try apt.aptGet(["-s", "upgrade"], check: true).stdout
        let aptsOwn = upgrade.split(separator: "\n").filter { $0.hasPrefix("Inst ") }.map { String($0.split(separator: " ")[1]) }
        #expect(names(after["packages"]) == aptsOwn && aptsOwn == ["lab-app", "lab-sec"], "\(after)\n\(upgrade)")
        #expect(after["security"] as? Int == 1)
        // Each version is dated by when this engine first listed it (its history keeps it):
        // lab-app 2.0 keeps the date of the first snapshot that had it; lab-sec 2.0 is new.
        let appSeen = try #require(firstSeen("lab-app", in: held), "\(held)")
        #expect(firstSeen("lab-app", in: after) == appSeen, "\(after)")
        #expect(appSeen < refreshStarted)
        let secSeen = try #require(firstSeen("lab-sec", in: after), "\(after)")
        #expect(secSeen >= refreshStarted.addingTimeInterval(-1), "\(secSeen) against \(refreshStarted)")

        // The refresh was a job like any other: in the queue and the history.
        let jobs = try await daemon.statusJobs()
        let refresh = try #require(jobs.first { $0["name"] as? String == "Refresh apt's lists" }, "\(jobs)")
        #expect(refresh["state"] as? String == "succeeded", "\(refresh)")
        let history = try await installtop(["history", "--json", "--history-db", try #require(daemon.historyDatabase)], in: daemon.folder)
        #expect(history.stdout.contains("apt-get update"), "\(history.stdout)")

        let text = try await daemon.run(["pending"])
        // The lists' age is the refresh's: under a minute unless a loaded machine took longer
        // than that since it started, and never more minutes than have passed.
        let minutes = Int(Date().timeIntervalSince(refreshStarted)) / 60
        let ages = ["lists just updated"] + (minutes > 0 ? (1...minutes).map { "lists \($0) minute\($0 == 1 ? "" : "s") old" } : [])
        #expect(ages.contains { text.stdout.hasPrefix("2 pending · 1 security · 1 held back · \($0)") }, "\(text.stdout)")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    /// When the snapshot says `package`'s new version was first seen (`firstSeen`).
    private func firstSeen(_ package: String, in snapshot: [String: Any]) -> Date? {
        let entry = (snapshot["packages"] as? [[String: Any]])?.first { $0["name"] as? String == package }
        guard let text = entry?["firstSeen"] as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    private func pendingJSON(_ daemon: DaemonFixture) async throws -> [String: Any] {
        let result = try await daemon.run(["pending", "--json"])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw EndToEndError.notJSON(line: "pending --json exited \(result.status): \(result.stdout)\(result.stderr)")
        }
        return object
    }

    private func names(_ list: Any?) -> [String] {
        (list as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }
}
