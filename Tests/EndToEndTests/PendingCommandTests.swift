import APTTestSupport
import Foundation
import Testing

/// `installtop pending --apt-config FILE`: the root read directly, printed as text and JSON,
/// against apt's own account in the same root.
@Suite("pending: the command on a root")
struct PendingCommandTests {
    @Test("Text: the summary, a line per package with its origin and security, held back ones with why; JSON: the same; a problem exits 1")
    func textAndJSON() async throws {
        let host = HostPackageFingerprint()
        let folder = try TestFolder()
        defer { folder.remove() }
        let apt = try APTTestRoot(folder: folder.file("apt"))
        try apt.publish([TestPackage(name: "lab-app"), TestPackage(name: "lab-held"), TestPackage(name: "lab-sec")])
        try apt.aptGet(["-y", "install", "lab-app", "lab-held", "lab-sec"], check: true)

        let upToDate = try await installtop(["pending", "--apt-config", apt.configuration], in: folder)
        #expect(upToDate.status == 0, "\(upToDate.stderr)")
        #expect(upToDate.stdout.hasPrefix("up to date · lists "), "\(upToDate.stdout)")

        try apt.publish([TestPackage(name: "lab-app", version: "2.0"), TestPackage(name: "lab-held", version: "2.0")])
        try apt.publishSecurity([TestPackage(name: "lab-sec", version: "2.0")])
        try apt.hold("lab-held")
        let text = try await installtop(["pending", "--apt-config", apt.configuration], in: folder, environment: ["COLUMNS": "200"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.first?.hasPrefix("2 pending · 1 security · 1 held back · lists ") == true, "\(text.stdout)")
        // The restart advice follows under `Restarts` when something needs a restart (what this
        // machine's processes are is not the test's): the packages come before it.
        #expect(Array(lines.dropFirst().prefix { $0 != "Restarts" }) == [
            "lab-app 1.0 → 2.0 localhost",
            "lab-sec 1.0 → 2.0 security Debian-Security:12/stable-security",
            "lab-held 1.0 → 2.0 held back: held",
        ], "\(text.stdout)")

        let json = try await installtop(["pending", "--json", "--apt-config", apt.configuration], in: folder)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let packages = try #require(object["packages"] as? [[String: Any]])
        // apt's own account of the same upgrade, in the same root.
        let upgrade = try apt.aptGet(["-s", "upgrade"], check: true).stdout
        let aptsOwn = upgrade.split(separator: "\n").filter { $0.hasPrefix("Inst ") }.map { $0.split(separator: " ")[1] }.map(String.init)
        #expect(packages.compactMap { $0["name"] as? String } == aptsOwn, "\(upgrade)")
        #expect(packages.compactMap { $0["security"] as? Bool } == [false, true])
        #expect(object["security"] as? Int == 1 && object["problem"] is NSNull)
        let held = try #require(object["heldBack"] as? [[String: Any]])
        #expect(held.map { "\($0["name"] ?? "") \($0["reason"] ?? "")" } == ["lab-held held"])

        let missing = try await installtop(["pending", "--apt-config", folder.file("no-such.conf")], in: folder)
        #expect(missing.status == 1 && missing.stdout.hasPrefix("could not compute: cannot read apt's configuration"), "\(missing.stdout)")
        let usage = try await installtop(["pending", "--refresh", "--apt-config", apt.configuration], in: folder)
        #expect(usage.status == 2, "\(usage.stderr)")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
