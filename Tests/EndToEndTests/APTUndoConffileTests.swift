import APTTestSupport
import Foundation
import Testing

/// What an undo must not lose (issue 35, item 4; rule 36), through the real binary in a private
/// apt root (APT_CONFIG): an edited conffile put back from a rebuilt .deb stays edited and known
/// to dpkg as edited, so the next upgrade keeps it; packages that were automatic stay so, also
/// the ones the undone run removed. The host's packages are never touched (fingerprinted).
@Suite("installtop apt undo: conffiles and marks", .serialized)
struct APTUndoConffileTests {
    private static func md5(_ text: String) throws -> String {
        let folder = try TestFolder()
        defer { folder.remove() }
        try text.write(toFile: folder.file("text"), atomically: true, encoding: .utf8)
        let sum = try TestCommand.check(["/usr/bin/md5sum", folder.file("text")])
        return String(sum.stdout.prefix(32))
    }

    /// The hash dpkg records as `/etc/lab-app.conf`'s original (`dpkg --status`'s Conffiles).
    private static func recordedHash(_ apt: APTTestRoot) throws -> String? {
        let shown = try TestCommand.check(["/usr/bin/dpkg-query", "--admindir=\(apt.root)/var/lib/dpkg", "--status", "lab-app"])
        return shown.stdout.split(separator: "\n").first { $0.hasPrefix(" /etc/lab-app.conf ") }.map { String($0.split(separator: " ")[1]) }
    }

    @Test("Issue 35's undo: 1.0 back from rebuilt .debs after the archive dropped it, the edit kept and known to dpkg; the next upgrade keeps it")
    func editedConffileSurvivesUndoAndTheNextUpgrade() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let (apt, database) = (lab.apt, lab.database)
        let original = try Self.md5("setting = 1.0\n")

        try lab.installVersionOne(toolNeedsBase: true)
        try apt.publish(UndoLab.packages("2.0", toolNeedsBase: true))
        let upgrade = try await lab.installtopAPT(["upgrade"])
        #expect(upgrade.status == 0, "stdout: \(upgrade.stdout)\nstderr: \(upgrade.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "2.0"])
        let run = try await lab.newestRun()
        // Nothing was in apt's cache (cleaned; file: sources are never cached): every kept
        // version is a rebuild, the conffile in it as edited.
        let sources = try TestCommand.check(["/usr/bin/sqlite3", database, "SELECT DISTINCT source FROM keptVersion"]).stdout
        #expect(sources == "rebuilt\n", "\(sources)")

        // The archive drops 1.0: apt alone cannot put it back any more.
        try lab.dropVersionOne()
        let gone = try apt.aptGet(["install", "-y", "--allow-downgrades", "lab-app=1.0"])
        #expect(gone.status != 0 && gone.stderr.contains("'1.0' for 'lab-app' was not found"), "\(gone.stdout) \(gone.stderr)")

        let undo = try await lab.installtopAPT(["undo", String(run)])
        #expect(undo.status == 0, "stdout: \(undo.stdout)\nstderr: \(undo.stderr)")
        let queued = try #require(try undo.jsonEvents().first { $0.name == "job.queued" })
        #expect(queued.string("operation") == "uninstall" && queued.int("undoOf") == run)
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try apt.audit().isEmpty)
        #expect(try lab.conffileIsEdited())
        // dpkg knows the file as edited: its record is 1.0's original, not the edit's hash.
        #expect(try Self.recordedHash(apt) == original)
        let verify = try TestCommand.run(["/usr/bin/dpkg", "--root=\(apt.root)", "--admindir=\(apt.root)/var/lib/dpkg", "--verify", "lab-app"])
        #expect(verify.stdout == "??5?????? c /etc/lab-app.conf\n", "dpkg sees the edit: \(verify.stdout)")
        #expect(try apt.audit().isEmpty)
        let history = try await lab.runs()
        let undoRun = try #require(history.first)
        let undoID = try #require((undoRun["run"] as? NSNumber)?.intValue)
        #expect((undoRun["undoOf"] as? NSNumber)?.intValue == run && undoRun["operation"] as? String == "uninstall")
        #expect(undoRun["result"] as? String == "succeeded")
        let upgraded = try #require(history.first { ($0["run"] as? NSNumber)?.intValue == run })
        #expect((upgraded["undoneBy"] as? NSNumber)?.intValue == undoID)

        // The next upgrade: dpkg sees an edited conffile whose package changed it, so under the
        // root's --force-confold it keeps the edit and writes the package's as .dpkg-dist.
        let again = try await lab.installtopAPT(["upgrade"])
        #expect(again.status == 0, "stdout: \(again.stdout)\nstderr: \(again.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "2.0"])
        #expect(try lab.conffileIsEdited())
        #expect(try String(contentsOfFile: apt.root + "/etc/lab-app.conf.dpkg-dist", encoding: .utf8) == "setting = 2.0\n")
        #expect(try Self.recordedHash(apt) == (try Self.md5("setting = 2.0\n")))
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A removal undone: the packages it removed come back from rebuilt .debs, the automatic one marked automatic again")
    func undoOfARemovalKeepsAutomaticMarks() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let (apt, database) = (lab.apt, lab.database)
        try apt.publish(UndoLab.packages("1.0", toolNeedsBase: true))
        // lab-base comes in automatically, as both others' dependency.
        try apt.aptGet(["install", "-y", "lab-app", "lab-tool"], check: true)
        let marks = { try TestCommand.run(["/usr/bin/apt-mark", "showauto"], environment: apt.environment).stdout }
        #expect(try marks() == "lab-base\n")
        try UndoLab.editedConffile.write(toFile: apt.root + "/etc/lab-app.conf", atomically: true, encoding: .utf8)
        // Removing lab-base removes both packages that need it.
        let removal = try await lab.installtopAPT(["remove", "lab-base"])
        #expect(removal.status == 0, "stdout: \(removal.stdout)\nstderr: \(removal.stderr)")
        #expect(try apt.states().values.allSatisfy { $0.status != "ii" })
        let run = try await lab.newestRun()
        let recorded = try TestCommand.check(["/usr/bin/sqlite3", database,
                                              "SELECT package, automatic FROM keptVersion WHERE jobRun = \(run) ORDER BY package"]).stdout
        #expect(recorded == "lab-app|0\nlab-base|1\nlab-tool|0\n", "the marks as they were before dpkg ran: \(recorded)")
        try lab.dropVersionOne()

        let undo = try await lab.installtopAPT(["undo", String(run)])
        #expect(undo.status == 0, "stdout: \(undo.stdout)\nstderr: \(undo.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try apt.audit().isEmpty)
        #expect(try marks() == "lab-base\n", "automatic again; the others manual as before")
        // Removed (not purged), the conffile stayed as edited, and so did dpkg's record of it.
        #expect(try lab.conffileIsEdited())
        #expect(try Self.recordedHash(apt) == (try Self.md5("setting = 1.0\n")))
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
