import APTTestSupport
import Foundation
import Glibc
import Testing

/// The kill matrix's conffile column where a kill leaves it: a package whose conffile the
/// operator edited, and which the new version changes too, unpacked but not configured (`iU`,
/// the new file beside it as `.dpkg-new`). The repair installtop runs after a forced stop, and
/// `apt repair`'s finishing job (`installtop apt finish`), configure it with dpkg itself: in a
/// root whose apt configuration gives dpkg no `--force-confold` (a real system's), dpkg asked
/// about the file with nobody to answer and failed the package (`end of file on stdin at
/// conffile prompt`). The lab's default configuration gives it to every dpkg, which hid this
/// from the matrix.
@Suite("installtop apt: finishing what dpkg left half-way keeps the operator's conffile")
struct APTRepairConffileTests {
    @Test("A conffile package left unpacked is configured with the operator's edit kept, the new version's file beside it")
    func finishKeepsTheOperatorsEdit() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try APTKillPoint.dropKeptConfigurationOptions(apt)
        func lab(_ version: String) -> [TestPackage] {
            [TestPackage(name: "lab-cf", version: version, files: ["/etc/lab-cf.conf": "setting = \(version)\n"], conffiles: ["/etc/lab-cf.conf"])]
        }
        try apt.publish(lab("1.0"))
        try apt.aptGet(["-y", "install", "lab-cf"], check: true)
        let edit = "setting = the operator's own\n"
        try edit.write(toFile: apt.root + "/etc/lab-cf.conf", atomically: true, encoding: .utf8)
        try apt.publish(lab("2.0"))
        // What a kill between dpkg's unpack and its configure leaves.
        var dpkg = ["/usr/bin/dpkg", "--root=\(apt.root)", "--log=\(apt.root)/var/log/dpkg.log", "--force-script-chrootless"]
        if getuid() != 0 { dpkg.append("--force-not-root") }
        try TestCommand.check(dpkg + ["--unpack", apt.repository + "/lab-cf_2.0_all.deb"])
        let unpacked = try apt.states()
        try #require(unpacked["lab-cf"].map { "\($0.status) \($0.version)" } == "iU 2.0", "\(unpacked)")

        let finish = try await installtop(["apt", "finish", "--apt-config", apt.configuration], in: folder)
        let said = "stdout: \(finish.stdout)\nstderr: \(finish.stderr)"
        #expect(finish.status == 0, "\(said)")
        #expect(!said.contains("conffile prompt"), "\(said)")
        let finished = try apt.states()
        #expect(finished["lab-cf"].map { "\($0.status) \($0.version)" } == "ii 2.0", "\(said)")
        #expect(try apt.audit().isEmpty)
        #expect(try String(contentsOfFile: apt.root + "/etc/lab-cf.conf", encoding: .utf8) == edit)
        #expect(try String(contentsOfFile: apt.root + "/etc/lab-cf.conf.dpkg-dist", encoding: .utf8) == "setting = 2.0\n")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
