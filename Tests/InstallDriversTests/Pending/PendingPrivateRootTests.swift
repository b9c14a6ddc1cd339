import APTTestSupport
import EngineWire
import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// The pending snapshot of a real private root against apt's own account of the upgrade
/// (`apt-get -s upgrade` in the same root), before and after newer versions are published
/// and apt's lists refreshed, with a held, a pinned, a phased and a conflicting package and a
/// security archive. Nothing of the host's packages may change (checked by fingerprint).
@Suite("pending: a private root")
struct PendingPrivateRootTests {
    @Test("The snapshot agrees with apt-get -s upgrade; held back packages each with its reason; security by the archive's suite")
    func snapshotAgainstApt() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let names = ["lab-app", "lab-held", "lab-pinned", "lab-phased", "lab-conflicting", "lab-victim", "lab-sec"]
        try apt.publish(names.map { TestPackage(name: $0) })
        try apt.aptGet(["-y", "install"] + names, check: true)

        let fresh = PendingSnapshotReader.read(aptConfig: apt.configuration)
        #expect(fresh.problem == nil, "\(fresh.problem ?? "")")
        #expect(fresh.isUpToDate, "\(fresh)")
        let lists = try #require(fresh.listsUpdatedAt, "apt-get update wrote lists")
        #expect(abs(lists.timeIntervalSinceNow) < 300, "the lists' age is that of the update just run: \(lists)")
        #expect(fresh.restarts != nil)

        // Newer versions in the archive and the lists refreshed: what an upgrade would do changes.
        let before = Date()
        try apt.publish([
            TestPackage(name: "lab-app", version: "2.0"), TestPackage(name: "lab-held", version: "2.0"),
            TestPackage(name: "lab-pinned", version: "2.0"), TestPackage(name: "lab-phased", version: "2.0"),
            TestPackage(name: "lab-conflicting", version: "2.0", conflicts: "lab-victim"),
        ])
        try apt.publishSecurity([TestPackage(name: "lab-sec", version: "2.0")])
        try apt.hold("lab-held")
        try apt.pin("lab-pinned", at: "1.0")
        try apt.phase("lab-phased", percentage: 0)

        let snapshot = PendingSnapshotReader.read(aptConfig: apt.configuration)
        #expect(snapshot.problem == nil, "\(snapshot.problem ?? "")")
        let upgrade = try apt.aptGet(["-s", "upgrade"], check: true).stdout
        let aptsOwn = APTSimulation.plan(from: upgrade).map { "\($0.package) \($0.oldVersion ?? "-") \($0.newVersion ?? "-")" }
        #expect(snapshot.packages.map { "\($0.name) \($0.oldVersion ?? "-") \($0.newVersion)" } == aptsOwn, "\(upgrade)")
        #expect(snapshot.packages.map(\.name).sorted() == ["lab-app", "lab-sec"], "\(upgrade)")
        #expect(snapshot.packages.first { $0.name == "lab-sec" }?.origin == "Debian-Security:12/stable-security")
        #expect(snapshot.packages.filter(\.isSecurity).map(\.name) == ["lab-sec"])
        #expect(snapshot.heldBack == [
            HeldBackPackage(name: "lab-conflicting", installedVersion: "1.0", availableVersion: "2.0", reason: .wouldRemove(["lab-victim"])),
            HeldBackPackage(name: "lab-held", installedVersion: "1.0", availableVersion: "2.0", reason: .held),
            HeldBackPackage(name: "lab-phased", installedVersion: "1.0", availableVersion: "2.0", reason: .phased(percentage: 0)),
            HeldBackPackage(name: "lab-pinned", installedVersion: "1.0", availableVersion: "2.0", reason: .pinned),
        ], "\(snapshot.heldBack)")
        // apt's own words for the same: the hold, and the packages its upgrade keeps back.
        let holds = try TestCommand.check(["/usr/bin/apt-mark", "showhold"], environment: apt.environment).stdout
        #expect(holds.split(separator: "\n") == ["lab-held"])
        let keptBack = upgrade.components(separatedBy: "have been kept back:\n").dropFirst().first?
            .split(separator: "\n").prefix { $0.hasPrefix(" ") }.flatMap { $0.split(separator: " ") }.map(String.init) ?? []
        #expect(Set(keptBack) == ["lab-conflicting", "lab-held", "lab-phased"], "the pinned one apt does not even list: \(upgrade)")
        let refreshed = try #require(snapshot.listsUpdatedAt)
        #expect(refreshed >= before.addingTimeInterval(-1), "the lists' age follows the refresh")
        #expect(snapshot.summary(now: Date()).hasPrefix("2 pending · 1 security · 4 held back · lists "), "\(snapshot.summary(now: Date()))")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("A package whose postinst failed is not fully installed as apt counts it: named with dpkg's state, the host not up to date")
    func halfConfigured() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-app"), TestPackage(name: "lab-refusing", postinst: "exit 1")])
        try apt.aptGet(["-y", "install", "lab-app"], check: true)
        _ = try apt.aptGet(["-y", "install", "lab-refusing"])
        #expect(try apt.states()["lab-refusing"]?.status == "iF")

        let snapshot = PendingSnapshotReader.read(aptConfig: apt.configuration)
        #expect(snapshot.problem == nil, "\(snapshot.problem ?? "")")
        #expect(snapshot.notFullyInstalled == ["lab-refusing: half-configured at 1.0 (iF)"])
        #expect(!snapshot.isUpToDate)
        #expect(snapshot.summary(now: Date()).hasPrefix("1 not fully installed · lists "), "\(snapshot.summary(now: Date()))")
        // apt's own count of the same.
        let upgrade = try apt.aptGet(["-s", "upgrade"]).stdout
        #expect(upgrade.contains("1 not fully installed or removed."), "\(upgrade)")
        let coded = try PendingSnapshotCoding.decode(WireObject(try #require(JSONParser.parse(PendingSnapshotCoding.encode(snapshot)).objectValue), context: "snapshot"))
        #expect(coded.notFullyInstalled == snapshot.notFullyInstalled)
    }

    @Test("A missing apt configuration, a broken root: a snapshot with the problem, in apt's words when apt gave some, never a crash")
    func problems() throws {
        // apt itself would read the system's root in place of a missing APT_CONFIG.
        let missing = PendingSnapshotReader.read(aptConfig: "/nonexistent/installtop-apt.conf")
        #expect(missing.problem == "cannot read apt's configuration /nonexistent/installtop-apt.conf", "\(missing.problem ?? "")")
        #expect(missing.packages.isEmpty && missing.restarts == nil)

        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-app")])
        try "deb this is no source line\n".write(toFile: apt.root + "/etc/apt/sources.list", atomically: true, encoding: .utf8)
        let broken = PendingSnapshotReader.read(aptConfig: apt.configuration)
        let problem = try #require(broken.problem)
        #expect(problem.contains("E: "), "apt's own error: \(problem)")
        #expect(broken.summary(now: Date()).hasPrefix("failed: E: "))
    }
}
