import APTTestSupport
import Foundation
import Testing

/// Keeping by rebuild on a system whose /lib is a link to usr/lib (the /usr merge, every Debian
/// since bookworm): the package lists /lib and paths in it, which the rebuilt .deb must carry
/// as a folder. Found by upgrading bookworm's libssl3, liblzma5 and apt from bookworm-security
/// in a debootstrap chroot: liblzma5 and apt were not kept ("tar: ./lib/x86_64-linux-gnu:
/// Cannot mkdir").
@Suite("installtop apt: keeping on a merged /usr")
struct APTUndoMergedUsrTests {
    @Test("a package with files under a /lib that links to usr/lib is rebuilt, kept whole, and its run can be undone")
    func aLinkedLibFolderIsAFolderInTheRebuild() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("state/history.sqlite3")
        // The merged /usr: /lib is a link to usr/lib, as debootstrap makes it.
        try FileManager.default.createDirectory(atPath: apt.root + "/usr/lib", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: apt.root + "/lib", withDestinationPath: "usr/lib")
        func lab(_ version: String) -> TestPackage {
            TestPackage(name: "lab-lib", version: version, files: ["/lib/lab-arch/liblab.so.1": "lab \(version)\n"])
        }
        try apt.publish([lab("1.0")])
        try apt.aptGet(["install", "-y", "lab-lib"], check: true)
        try apt.aptGet(["clean"], check: true)
        try apt.publish([lab("2.0")])

        let result = try await installtop(["apt", "upgrade", "--yes", "--json", "--apt-config", apt.configuration, "--history-db", database],
                                          in: folder, timeout: .seconds(180))
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let undo = folder.file("state/undo")
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: undo).first)
        let kept = undo + "/" + run + "/lab-lib_1.0_all.deb"
        let contents = try TestCommand.run(["/usr/bin/dpkg-deb", "--contents", kept])
        #expect(contents.status == 0 && contents.stdout.contains("./lib/lab-arch/liblab.so.1"), "\(contents.stdout)\(contents.stderr)")
        #expect(contents.stdout.split(separator: "\n").contains { $0.hasPrefix("d") && $0.hasSuffix(" ./lib/") },
                "/lib is a folder in the rebuilt package, not the link: \(contents.stdout)")
        let jobs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder)
        #expect(jobs.stdout.contains("\"undoable\":true"), "\(jobs.stdout)")

        let undone = try await installtop(["apt", "undo", "1", "--yes", "--plain", "--apt-config", apt.configuration, "--history-db", database],
                                          in: folder, timeout: .seconds(180))
        #expect(undone.status == 0, "stdout: \(undone.stdout)\nstderr: \(undone.stderr)")
        #expect(try apt.states()["lab-lib"]?.version == "1.0")
        #expect(try String(contentsOfFile: apt.root + "/usr/lib/lab-arch/liblab.so.1", encoding: .utf8) == "lab 1.0\n")
        var info = stat()
        #expect(lstat(apt.root + "/lib", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "/lib is still the link")
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
