import APTTestSupport
import Foundation
import Glibc
import Testing

/// Commands that act on what root keeps, run by a user who is not root (nobody, through
/// setpriv, from a copy of the binary it can run): each says that it needs root, instead of
/// failing on a file it cannot open. Nothing here writes the
/// machine's own configuration: nobody cannot, and the private roots are the tests' own.
@Suite("commands run by a user who is not root")
struct NotRootCommandTests {
    @Test("hooks install as nobody: refused with exit 2 for an --apt-config it cannot read, for the real root and for a private root of root's; written into a private root nobody may write",
          .enabled(if: getuid() == 0, "needs root to run installtop as uid 65534 (nobody)"))
    func hooksInstallNeedsRoot() async throws {
        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o711)
        let apt = try APTTestRoot(folder: folder.file("apt"))
        let socket = ["--socket", folder.file("engine.sock")]
        let unreadable = try await nobody.run(["hooks", "install", "--apt-config", apt.configuration] + socket, in: folder,
                                              runtimeDirectory: nil, machineSocket: nil)
        #expect(unreadable.status == 2 && unreadable.stderr.contains("cannot read --apt-config \(apt.configuration): Permission denied"),
                "apt-config would only warn and name the real root's folder: \(unreadable.status) \(unreadable.stderr)")
        // The root's folder was 0700; now nobody passes through to read the configuration.
        #expect(chmod(folder.file("apt"), 0o711) == 0)

        let machine = try await nobody.run(["hooks", "install"] + socket, in: folder, runtimeDirectory: nil, machineSocket: nil)
        #expect(machine.status == 2 && machine.stdout.isEmpty, "\(machine.status) \(machine.stdout)\(machine.stderr)")
        #expect(machine.stderr == "installtop: hooks install needs root: you may not write /etc/apt/apt.conf.d/ or /etc/dpkg/dpkg.cfg.d/,"
            + " where the hooks go; run it as root (sudo installtop hooks install), or give --apt-config for a root you can write\n",
                "\(machine.stderr)")

        let parts = apt.root + "/etc/apt/apt.conf.d"
        let rootsPrivate = try await nobody.run(["hooks", "install", "--apt-config", apt.configuration] + socket, in: folder,
                                                runtimeDirectory: nil, machineSocket: nil)
        #expect(rootsPrivate.status == 2 && rootsPrivate.stderr.hasPrefix("installtop: hooks install needs root: you may not write \(parts)/, where"),
                "\(rootsPrivate.status) \(rootsPrivate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: parts + "/99installtop-observe"))

        #expect(chown(parts, 65_534, 65_534) == 0)
        let own = try await nobody.run(["hooks", "install", "--apt-config", apt.configuration] + socket, in: folder,
                                       runtimeDirectory: nil, machineSocket: nil)
        #expect(own.status == 0 && own.stdout.contains("wrote \(parts)/99installtop-observe"), "\(own.status) \(own.stdout)\(own.stderr)")
    }
}
