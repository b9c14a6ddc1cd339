import APTTestSupport
import Foundation
import Glibc
import Testing

/// `installtop hooks install|status|remove --apt-config` in a private apt root, and plain
/// `apt-get` runs through the hooks it writes: a missing relay or a stopped engine never
/// changes apt's exit status or leaves dpkg's database unclean (rule 31).
@Suite("installtop hooks", .serialized)
struct HooksTests {
    private let lab = [
        TestPackage(name: "lab-base", postinst: "echo configuring lab-base"),
        TestPackage(name: "lab-app", depends: "lab-base", postinst: "echo configuring lab-app"),
    ]

    private func hookFile(_ apt: APTTestRoot) -> String { apt.root + "/etc/apt/apt.conf.d/99installtop-observe" }

    @Test("status says what is installed and whether an engine listens; remove leaves no file behind")
    func statusInEachState() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let fixture = try DaemonFixture()
        defer { fixture.folder.remove() }
        let folder = fixture.folder
        let parts = apt.root + "/etc/apt/apt.conf.d"
        let before = try FileManager.default.contentsOfDirectory(atPath: parts).sorted()
        let hooks = ["--apt-config", apt.configuration, "--socket", fixture.socket]

        let none = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(none.status == 1 && none.stdout.contains("missing:   \(hookFile(apt))"), "\(none)")

        let installed = try await installtop(["hooks", "install"] + hooks, in: folder)
        #expect(installed.status == 0, "\(installed)")
        let text = try String(contentsOfFile: hookFile(apt), encoding: .utf8)
        #expect(text.contains("--status-logger="), "a private root gets the status logger through DPkg::Options")
        #expect(text.contains("DPkg::Tools::Options::") && text.contains("::Version \"3\""))
        #expect(!FileManager.default.fileExists(atPath: "/etc/apt/apt.conf.d/99installtop-observe"), "the host's apt is untouched")

        let quiet = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.stdout.contains("installed: \(hookFile(apt))") && quiet.stdout.contains("no engine listens"), "\(quiet.stdout)")
        #expect(quiet.stdout.contains("installtop-relay (present)"), "\(quiet.stdout)")

        try await fixture.start()
        let listening = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(listening.status == 0 && listening.stdout.contains("an engine listens"), "\(listening.stdout)")

        let removed = try await installtop(["hooks", "remove"] + hooks, in: folder)
        #expect(removed.status == 0 && removed.stdout.contains("removed \(hookFile(apt))"), "\(removed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts).sorted() == before)
        let gone = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(gone.status == 1, "\(gone.stdout)")
    }

    @Test("A relay that is not there (removed after hooks install): apt-get exits 0 and dpkg's database is clean")
    func missingRelay() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish(lab)
        let folder = try TestFolder()
        defer { folder.remove() }

        let installed = try await installtop(
            ["hooks", "install", "--apt-config", apt.configuration, "--socket", folder.file("engine.sock"),
             "--relay", folder.file("gone/installtop-relay")], in: folder)
        #expect(installed.status == 0 && installed.stdout.contains("is not there yet"), "\(installed)")

        let run = try apt.aptGet(["install", "-y", "lab-app"])
        #expect(run.status == 0, "apt-get failed through a hook whose relay is missing:\n\(run.stdout)\n\(run.stderr)")
        #expect(try apt.states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-app", "lab-base"])
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("The engine stopped (SIGSTOP) during a transaction: apt-get exits 0 and dpkg's database is clean")
    func stoppedEngine() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // Enough status lines to fill a socket nobody reads.
        try apt.publish((1...40).map { TestPackage(name: "lab-many-\($0)", postinst: "echo configuring") })
        let fixture = try DaemonFixture()
        defer { fixture.folder.remove() }
        let serve = try await fixture.start()
        let installed = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
        #expect(installed.status == 0, "\(installed)")

        serve.send(SIGSTOP)
        defer { serve.send(SIGCONT) }
        let run = try apt.aptGet(["install", "-y"] + (1...40).map { "lab-many-\($0)" })
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(try apt.states().filter { $0.value.status == "ii" }.count == 40)
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
