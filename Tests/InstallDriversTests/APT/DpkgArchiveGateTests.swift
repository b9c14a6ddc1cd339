import Foundation
import Testing

import TestProcessSupport
@testable import InstallDrivers

/// The gate's folder and script (`DpkgArchiveGate`), with stand-ins for dpkg and dpkg-deb: the
/// folder is empty until a stop, so dpkg finds its own dpkg-deb; then the gate refuses the next
/// archive where dpkg says what is unpacked can be configured, and says so once.
@Suite("apt: the gate before each archive dpkg opens")
struct DpkgArchiveGateTests {
    /// A temporary folder the test removes.
    private static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.path + "/installtop-gate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func environment(root: String, chroot: String? = nil, dpkgPath: String? = nil) -> APTEnvironment {
        APTEnvironment(aptConfig: nil, administrativeDirectory: root + "/var/lib/dpkg", root: root, dpkgOptions: [], chroot: chroot)
            .with(dpkgPath: dpkgPath)
    }

    /// Runs `dpkg-deb ARGUMENTS` as dpkg does: looked up on a `PATH` with the gate first.
    private static func call(_ gate: DpkgArchiveGate, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dpkg-deb"] + arguments
        process.environment = ["PATH": gate.folder + ":" + gate.dpkgPath]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    @Test("Made empty in the root's /run/installtop, first on dpkg's PATH before apt's default; its dpkg-deb only once a stop is asked; removed with its folder")
    func madeInTheRoot() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let gate = try #require(DpkgArchiveGate.make(for: Self.environment(root: root)))
        #expect(gate.folder.hasPrefix(root + "/run/installtop/dpkg-gate."))
        #expect(gate.folderForDpkg == gate.folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: gate.folder).isEmpty, "nothing in dpkg's way before a stop")
        #expect(gate.requestStop() && gate.requestStop())
        #expect(FileManager.default.isExecutableFile(atPath: gate.folder + "/dpkg-deb"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: gate.folder) == ["dpkg-deb"])
        #expect(gate.aptOptions == ["-o", "DPkg::Path=\(gate.folder):/usr/sbin:/usr/bin:/sbin:/bin"])
        let other = try #require(DpkgArchiveGate.make(for: Self.environment(root: root)))
        #expect(other.folder != gate.folder, "each transaction has a folder of its own")
        gate.remove()
        #expect(!FileManager.default.fileExists(atPath: gate.folder))
        #expect(FileManager.default.fileExists(atPath: other.folder))
    }

    @Test("In a chroot dpkg sees the folder without the chroot's path; the configuration's DPkg::Path is kept after the gate")
    func chrootAndConfiguredPath() throws {
        let chroot = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: chroot) }
        let gate = try #require(DpkgArchiveGate.make(for: Self.environment(root: chroot, chroot: chroot, dpkgPath: "/opt/bin:/usr/bin")))
        #expect(gate.folder.hasPrefix(chroot + "/run/installtop/dpkg-gate."))
        #expect(gate.folderForDpkg == String(gate.folder.dropFirst(chroot.count)) && gate.folderForDpkg.hasPrefix("/run/installtop/dpkg-gate."))
        #expect(gate.aptOptions == ["-o", "DPkg::Path=\(gate.folderForDpkg):/opt/bin:/usr/bin"])
        #expect(gate.script.contains("[ ! -e '\(gate.folderForDpkg)/refused' ]") && gate.script.contains("PATH='/opt/bin:/usr/bin'"), "\(gate.script)")
        let environment = APTEnvironment.parse(dump: "Dir \"/\";\nDPkg::Path \"/opt/bin:/usr/bin\";\n", aptConfig: nil)
        #expect(environment.dpkgPath == "/opt/bin:/usr/bin")
        #expect(APTEnvironment.parse(dump: "Dir \"/\";\n", aptConfig: nil).dpkgPath == nil)
    }

    @Test("Before a stop every call goes to dpkg's dpkg-deb; after it the next --control is refused (status 75, said once) where dpkg can configure what is unpacked, and let through where it cannot")
    func refusesOnlyAtAConfigurablePoint() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Stand-ins: dpkg's dry run answers with the status in `dry-run`; dpkg-deb says its words
        // (builtins only: the PATH holds the gate and the stand-ins).
        let bin = root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for (name, body) in [("dpkg", "echo \"$*\" >> '\(root)/dpkg-calls'; read status < '\(root)/dry-run'; exit $status"), ("dpkg-deb", "echo \"dpkg-deb $*\"")] {
            try ExecutableFile.write("#!/bin/sh\n\(body)\n", to: bin + "/" + name)
        }
        try "0".write(toFile: root + "/dry-run", atomically: true, encoding: .utf8)
        let gate = try #require(DpkgArchiveGate.make(for: Self.environment(root: root, dpkgPath: bin)))

        let before = try Self.call(gate, ["--control", "/cache/a_1.0_all.deb", "/var/lib/dpkg/tmp.ci"])
        #expect(before.status == 0 && before.stdout == "dpkg-deb --control /cache/a_1.0_all.deb /var/lib/dpkg/tmp.ci\n" && before.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root + "/dpkg-calls"), "no dry run before a stop")
        #expect(try FileManager.default.contentsOfDirectory(atPath: gate.folder).isEmpty)

        gate.requestStop()
        gate.requestStop()
        let tar = try Self.call(gate, ["--fsys-tarfile", "/cache/a_1.0_all.deb"])
        #expect(tar.status == 0 && tar.stdout == "dpkg-deb --fsys-tarfile /cache/a_1.0_all.deb\n", "only --control opens an archive")

        try "1".write(toFile: root + "/dry-run", atomically: true, encoding: .utf8)
        let notYet = try Self.call(gate, ["--control", "/cache/b_1.0_all.deb", "/var/lib/dpkg/tmp.ci"])
        #expect(notYet.status == 0 && notYet.stdout.hasPrefix("dpkg-deb --control /cache/b_1.0_all.deb"), "\(notYet)")

        try "0".write(toFile: root + "/dry-run", atomically: true, encoding: .utf8)
        let refused = try Self.call(gate, ["--control", "/cache/c_1.0_all.deb", "/var/lib/dpkg/tmp.ci"])
        #expect(refused.status == DpkgArchiveGate.refusalStatus && refused.stdout.isEmpty && refused.stderr == DpkgArchiveGate.refusalNotice + "\n", "\(refused)")
        let again = try Self.call(gate, ["--control", "/cache/d_1.0_all.deb", "/var/lib/dpkg/tmp.ci"])
        #expect(again.status == DpkgArchiveGate.refusalStatus && again.stderr.isEmpty, "said once: \(again)")
        let calls = try String(contentsOfFile: root + "/dpkg-calls", encoding: .utf8)
        #expect(calls.split(separator: "\n").allSatisfy { $0 == "--dry-run --log=/dev/null --configure --pending" }, "\(calls)")
        gate.remove()
    }
}
