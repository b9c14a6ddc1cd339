import APTTestSupport
import Foundation
import Testing

/// Apt jobs of manifests (`installtop run`) and of submissions (`serve`) keep the versions they
/// replace, as `installtop apt …` does (rule 33): their runs can be undone after the archive
/// dropped the old versions. Private roots only; the host's packages are never touched.
@Suite("Keeping in run's and serve's apt jobs", .serialized)
struct APTKeepingInEngineJobsTests {
    private static func lab(_ version: String) -> [TestPackage] {
        [
            TestPackage(name: "lab-base", version: version, files: ["/usr/share/lab-base/data": "base \(version)\n"]),
            TestPackage(name: "lab-app", version: version, depends: "lab-base (= \(version))",
                        files: ["/usr/share/lab-app/data": "app \(version)\n"]),
        ]
    }

    /// The lab installed at 1.0, apt's cache cleaned, 2.0 published and 1.0 gone from the archive.
    private static func labReadyToUpgrade(_ apt: APTTestRoot) throws {
        try apt.publish(lab("1.0"))
        try apt.aptGet(["install", "-y", "lab-app"], check: true)
        try apt.aptGet(["clean"], check: true)
        try apt.publish(lab("2.0"))
        for package in lab("1.0") { try FileManager.default.removeItem(atPath: apt.repository + "/" + package.fileName) }
        try apt.publish([])
    }

    /// The newest run of `database`, which must be undoable with both lab packages upgraded.
    private static func newestRun(_ database: String, in folder: TestFolder) async throws -> Int {
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        let run = try #require(runs.first)
        #expect(run["kind"] as? String == "apt" && run["undoable"] as? Bool == true, "\(run)")
        let packages = (run["packages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }.sorted()
        #expect(packages == ["lab-app", "lab-base"], "\(run)")
        return try #require((run["run"] as? NSNumber)?.intValue)
    }

    private static func undo(_ run: Int, apt: APTTestRoot, database: String, in folder: TestFolder) async throws {
        let undo = try await installtop(["apt", "undo", String(run), "--yes", "--json", "--apt-config", apt.configuration,
                                         "--history-db", database], in: folder, timeout: .seconds(180))
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "1.0", "lab-app": "1.0"])
        #expect(try apt.audit().isEmpty)
    }

    @Test("A manifest's apt job keeps what it replaces: its run is undone from the kept versions")
    func manifestJob() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try Self.labReadyToUpgrade(apt)
        let database = folder.file("history.sqlite3")
        let manifest = folder.file("upgrade.yaml")
        try """
            jobs:
              - name: Lab upgrade
                apt: {upgrade: true, apt_config: \(apt.configuration)}
            """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let run = try await installtop(["run", manifest, "--plain", "--history-db", database], in: folder, timeout: .seconds(180))
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0"])
        let id = try await Self.newestRun(database, in: folder)
        let rows = try await installtop(["history", "--json", "--history-db", database], in: folder).jsonObjects()
        #expect(rows.count == 2, "the job's rows belong to the run its keeper reserved, not to a second one: \(rows)")
        try await Self.undo(id, apt: apt, database: database, in: folder)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("An apt job submitted to serve keeps what it replaces beside serve's history")
    func servedJob() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try Self.labReadyToUpgrade(apt)
        let daemon = try DaemonFixture(history: true)
        defer { daemon.remove() }
        try await daemon.start()
        let database = try #require(daemon.historyDatabase)
        let manifest = try daemon.folder.write("upgrade.yaml", """
            jobs:
              - name: Lab upgrade
                apt: {upgrade: true, apt_config: \(apt.configuration)}
            """)
        let submitted = try await daemon.run(["submit", manifest, "--yes"])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        try await daemon.waitForJob(1, state: "succeeded")
        let id = try await Self.newestRun(database, in: daemon.folder)
        let kept = try FileManager.default.contentsOfDirectory(atPath: database + ".undo/\(id)")
        #expect(kept.filter { $0.hasSuffix(".deb") }.count == 2, "\(kept)")
        try await Self.undo(id, apt: apt, database: database, in: daemon.folder)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
