import APTTestSupport
import Foundation
import Testing

/// What the undo tests share (issue 35): the lab packages, a private apt root, a test folder
/// with the history at `state/history.sqlite3` (its kept versions beside it in `state/undo/`),
/// and the steps each of them takes through the real binary. `remove()` deletes the root and
/// the folder.
final class UndoLab {
    /// The administrator's edit of lab-app's conffile.
    static let editedConffile = "setting = mine\n"

    let apt: APTTestRoot
    let folder: TestFolder
    let database: String
    /// Where the history keeps the versions of each run (`UNDO/RUN/NAME_VERSION_all.deb`).
    var undoFolder: String { folder.file("state/undo") }
    /// `--yes --json --apt-config … --history-db …`, for any `installtop apt …`.
    var arguments: [String] { ["--yes", "--json", "--apt-config", apt.configuration, "--history-db", database] }

    init() throws {
        apt = try APTTestRoot()
        do {
            folder = try TestFolder()
        } catch {
            apt.remove()
            throw error
        }
        database = folder.file("state/history.sqlite3")
    }

    func remove() {
        apt.remove()
        folder.remove()
    }

    /// lab-base, lab-app (which needs lab-base at exactly its own version and has the conffile
    /// `/etc/lab-app.conf`) and lab-tool (with `toolNeedsBase`, the same of lab-base), at
    /// `version`. With `provingKeptIn`, each preinst fails an upgrade from 1.0 unless that
    /// package's 1.0 is kept in that folder already: proof that keeping came before dpkg
    /// touched it.
    static func packages(_ version: String, toolNeedsBase: Bool = false, provingKeptIn undoFolder: String? = nil) -> [TestPackage] {
        func preinst(_ name: String) -> String? {
            guard version != "1.0", let undoFolder else { return nil }
            return """
                if [ "$1" = upgrade ] && [ "$2" = 1.0 ]; then
                  ls \(undoFolder)/*/\(name)_1.0_all.deb >/dev/null 2>&1 || { echo "\(name) 1.0 was not kept before its upgrade" >&2; exit 1; }
                fi
                """
        }
        return [
            TestPackage(name: "lab-base", version: version, preinst: preinst("lab-base"), files: ["/usr/share/lab-base/data": "base \(version)\n"]),
            TestPackage(name: "lab-app", version: version, depends: "lab-base (= \(version))", preinst: preinst("lab-app"),
                        files: ["/etc/lab-app.conf": "setting = \(version)\n", "/usr/bin/lab-app": "#!/bin/sh\necho \(version)\n"],
                        conffiles: ["/etc/lab-app.conf"]),
            TestPackage(name: "lab-tool", version: version, depends: toolNeedsBase ? "lab-base (= \(version))" : nil,
                        preinst: preinst("lab-tool"), files: ["/usr/share/lab-tool/data": "tool \(version)\n"]),
        ]
    }

    /// lab-app and lab-tool (lab-base with them, automatically) installed at 1.0, lab-app's
    /// conffile edited, apt's cache clean (a `file:` source is never cached anyway).
    func installVersionOne(toolNeedsBase: Bool = false) throws {
        try apt.publish(Self.packages("1.0", toolNeedsBase: toolNeedsBase))
        try apt.aptGet(["install", "-y", "lab-app", "lab-tool"], check: true)
        try Self.editedConffile.write(toFile: apt.root + "/etc/lab-app.conf", atomically: true, encoding: .utf8)
        try apt.aptGet(["clean"], check: true)
    }

    /// The archive drops 1.0 of `names` (their files deleted, the index made again, `apt-get
    /// update`): apt alone cannot put them back any more.
    func dropVersionOne(of names: [String] = ["lab-base", "lab-app", "lab-tool"]) throws {
        for name in names { try FileManager.default.removeItem(atPath: apt.repository + "/\(name)_1.0_all.deb") }
        try apt.publish([])
    }

    /// `installtop apt ARGUMENTS` with `arguments`, to its end.
    func installtopAPT(_ command: [String]) async throws -> RunResult {
        try await installtop(["apt"] + command + arguments, in: folder, timeout: .seconds(180))
    }

    /// `installtop history --jobs --json`: the runs, newest first.
    func runs() async throws -> [[String: Any]] {
        try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
    }

    /// The newest run's id.
    func newestRun() async throws -> Int {
        try #require((try await runs().first?["run"] as? NSNumber)?.intValue)
    }

    /// The lab's packages dpkg has, each as `STATUS VERSION` (`ii 1.0`).
    func states() throws -> [String: String] {
        try apt.states().mapValues { "\($0.status) \($0.version)" }
    }

    /// Whether lab-app's conffile holds the administrator's edit.
    func conffileIsEdited() throws -> Bool {
        try String(contentsOfFile: apt.root + "/etc/lab-app.conf", encoding: .utf8) == Self.editedConffile
    }
}
