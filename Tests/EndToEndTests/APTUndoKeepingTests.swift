import APTTestSupport
import Foundation
import Testing

/// Keeping what an apt job replaces, for undo (Documentation/UNDO.md, rule 33), and the job runs
/// of `history --jobs` (rule 34), through the real binary in a private apt root (APT_CONFIG).
/// The host's packages are never touched (fingerprinted).
@Suite("installtop apt: versions kept for undo", .serialized)
struct APTUndoKeepingTests {
    private static func run(_ command: [String], environment: [String: String] = [:]) throws -> TestCommand {
        try TestCommand.run(command, environment: environment)
    }

    @Test("An upgrade keeps every replaced 1.0 before dpkg touches it: linked from apt's cache, rebuilt otherwise; then history --jobs")
    func upgradeKeepsOldVersions() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let (apt, database, undo) = (lab.apt, lab.database, lab.undoFolder)
        try lab.installVersionOne()
        // apt copies no `file:` source into its cache (Documentation/PACKAGE-FACTS.md): lab-base 1.0 is put there as
        // an http source would have left it.
        let cache = apt.root + "/var/cache/apt/archives"
        let cachedBase = cache + "/lab-base_1.0_all.deb"
        try FileManager.default.copyItem(atPath: apt.repository + "/lab-base_1.0_all.deb", toPath: cachedBase)

        try apt.publish(UndoLab.packages("2.0", provingKeptIn: undo))
        try lab.dropVersionOne()

        let result = try await lab.installtopAPT(["upgrade"])

        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "2.0"])
        // apt could not put 1.0 back by itself now: the archive no longer offers it.
        let gone = try apt.aptGet(["install", "-s", "--allow-downgrades", "lab-base=1.0"])
        #expect(gone.status != 0 && gone.stderr.contains("'1.0' for 'lab-base' was not found"), "\(gone.stdout) \(gone.stderr)")
        let runs = try FileManager.default.contentsOfDirectory(atPath: undo)
        #expect(runs.count == 1, "one run folder: \(runs)")
        let run = try #require(runs.first)
        let runFolder = undo + "/" + run
        #expect(try Self.mode(of: runFolder) == 0o700)
        #expect(try Self.mode(of: undo) == 0o700)
        for name in ["lab-base", "lab-app", "lab-tool"] {
            let kept = runFolder + "/\(name)_1.0_all.deb"
            let fields = try Self.run(["/usr/bin/dpkg-deb", "-f", kept, "Package", "Version"])
            #expect(fields.stdout == "Package: \(name)\nVersion: 1.0\n", "\(name): \(fields.stdout) \(fields.stderr)")
        }
        // From the cache: the same file (a hard link), not a rebuild.
        #expect(try Self.inode(of: runFolder + "/lab-base_1.0_all.deb") == (try Self.inode(of: cachedBase)))
        // Rebuilt: the exact-version dependency, the conffile (as it is now) and the files are there.
        let app = runFolder + "/lab-app_1.0_all.deb"
        #expect(try Self.run(["/usr/bin/dpkg-deb", "-f", app, "Depends"]).stdout == "lab-base (= 1.0)\n")
        #expect(try Self.run(["/usr/bin/dpkg-deb", "--info", app, "conffiles"]).stdout == "/etc/lab-app.conf\n")
        let contents = try Self.run(["/usr/bin/dpkg-deb", "--contents", app]).stdout
        #expect(contents.contains("./usr/bin/lab-app") && contents.contains("./etc/lab-app.conf"), "\(contents)")
        #expect(try Self.inode(of: app) != (try Self.inode(of: cache + "/lab-app_1.0_all.deb", missingIsZero: true)))

        // The sizes recorded are the files' own.
        let recorded = try Self.run(["/usr/bin/sqlite3", database,
                                     "SELECT package, version, source, sizeBytes, file FROM keptVersion WHERE jobRun = \(run) ORDER BY package"])
        var rows: [String] = []
        for name in ["lab-app", "lab-base", "lab-tool"] {
            let file = runFolder + "/\(name)_1.0_all.deb"
            rows.append("\(name)|1.0|\(name == "lab-base" ? "cache" : "rebuilt")|\(try Self.size(of: file))|\(file)")
        }
        #expect(recorded.stdout == rows.joined(separator: "\n") + "\n", "\(recorded.stdout) \(recorded.stderr)")

        let objects = try await lab.runs()
        #expect(objects.count == 1, "\(objects)")
        let object = try #require(objects.first)
        #expect(Set(object.keys) == ["run", "kind", "name", "operation", "startedAt", "endedAt", "result", "packages", "undoable",
                                     "notUndoableBecause", "undoneBy", "undoOf", "observed", "installRoot", "confirm"])
        #expect(object["installRoot"] is NSNull, "an apt run records no dnf root")
        #expect(object["confirm"] is NSNull, "a run not armed with --confirm has no window")
        #expect((object["run"] as? NSNumber)?.stringValue == run)
        #expect(object["kind"] as? String == "apt")
        #expect((object["name"] as? String)?.hasPrefix("apt upgrade") == true)
        #expect(object["operation"] as? String == "install")
        #expect(object["result"] as? String == "succeeded")
        #expect(object["undoable"] as? Bool == true)
        #expect(object["notUndoableBecause"] is NSNull && object["undoneBy"] is NSNull && object["undoOf"] is NSNull)
        let packages = try #require(object["packages"] as? [[String: Any]])
        #expect(packages.compactMap { $0["name"] as? String }.sorted() == ["lab-app", "lab-base", "lab-tool"])
        for package in packages {
            #expect(package["action"] as? String == "upgrade" && package["oldVersion"] as? String == "1.0"
                        && package["newVersion"] as? String == "2.0", "\(package)")
        }
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A later run that upgrades one of the packages again makes the first not undoable, naming the later run")
    func laterRunBlocksUndo() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let (apt, folder, database) = (lab.apt, lab.folder, lab.database)

        try apt.publish(UndoLab.packages("1.0"))
        try apt.aptGet(["install", "-y", "lab-app", "lab-tool"], check: true)
        try apt.publish(UndoLab.packages("2.0", provingKeptIn: lab.undoFolder))
        let first = try await lab.installtopAPT(["upgrade"])
        #expect(first.status == 0, "\(first.stderr)")
        try apt.publish([TestPackage(name: "lab-tool", version: "3.0")])
        let second = try await lab.installtopAPT(["install", "lab-tool"])
        #expect(second.status == 0, "\(second.stderr)")

        let objects = try await lab.runs()
        #expect(objects.count == 2, "\(objects)")
        let later = try #require(objects.first)
        let earlier = try #require(objects.last)
        let laterID = try #require((later["run"] as? NSNumber)?.intValue)
        #expect(laterID > (earlier["run"] as? NSNumber)?.intValue ?? .max, "newest first")
        #expect(later["undoable"] as? Bool == true)
        #expect((later["packages"] as? [[String: Any]])?.map { $0["newVersion"] as? String } == ["3.0"])
        #expect(earlier["undoable"] as? Bool == false)
        #expect(earlier["notUndoableBecause"] as? String == "run \(laterID) changed lab-tool again: undo run \(laterID) first")

        let table = try await installtop(["history", "--jobs", "--history-db", database], in: folder)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(table.stdout)")
        #expect(table.stdout.contains("lab-tool  2.0 → 3.0") && table.stdout.contains("not undoable: run \(laterID) changed lab-tool again"),
                "\(table.stdout)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A TMPDIR that names no folder (an ssh session's SetEnv for a folder made on demand) does not stop the rebuilt versions from being kept")
    func keepingIgnoresAMissingTemporaryFolder() async throws {
        let lab = try UndoLab()
        defer { lab.remove() }
        try lab.installVersionOne()
        try lab.apt.publish(UndoLab.packages("2.0"))
        // dpkg-deb makes its temporary files in TMPDIR, building a package and reading one back.
        let missing = lab.folder.file("no-such-folder")
        let result = try await installtop(["apt", "upgrade"] + lab.arguments, in: lab.folder, environment: ["TMPDIR": missing],
                                          timeout: .seconds(180))
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(!result.stderr.contains("was not kept"), "\(result.stderr)")
        let run = try #require(try await lab.runs().first)
        #expect(run["undoable"] as? Bool == true, "\(run)")
        let runFolder = lab.undoFolder + "/\((run["run"] as? NSNumber)?.stringValue ?? "?")"
        for name in ["lab-base", "lab-app", "lab-tool"] {
            #expect(FileManager.default.fileExists(atPath: runFolder + "/\(name)_1.0_all.deb"), "\(name) 1.0 kept")
        }
        #expect(!FileManager.default.fileExists(atPath: missing), "installtop does not make the caller's TMPDIR")
    }

    @Test("--no-history keeps nothing and records no run")
    func noHistoryKeepsNothing() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try apt.publish(UndoLab.packages("1.0"))
        try apt.aptGet(["install", "-y", "lab-tool"], check: true)
        try apt.publish([TestPackage(name: "lab-tool", version: "2.0")])
        let home = folder.file("home")
        let result = try await installtop(["apt", "upgrade", "--yes", "--json", "--no-history", "--apt-config", apt.configuration],
                                          in: folder, environment: ["HOME": home, "XDG_STATE_HOME": home + "/state"], timeout: .seconds(180))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try apt.states()["lab-tool"]?.version == "2.0")
        #expect(!FileManager.default.fileExists(atPath: home + "/state/installtop"), "nothing written beside a history")
    }

    private static func mode(of path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }

    private static func size(of path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? -1
    }

    private static func inode(of path: String, missingIsZero: Bool = false) throws -> Int {
        if missingIsZero, !FileManager.default.fileExists(atPath: path) { return 0 }
        return ((try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber]) as? NSNumber)?.intValue ?? -1
    }
}
