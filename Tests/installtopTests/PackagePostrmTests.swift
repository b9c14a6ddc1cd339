import Foundation
import Testing
@testable import installtop

/// The Debian package's postrm (Packaging/deb/postrm), run with `$DPKG_ROOT` on a folder: it
/// deletes the hook files `installtop hooks install` writes (their text from `HookFiles`, so a
/// renamed file or marker fails here) and only those, and the service's state only on purge.
/// .ci/check-package runs it for real, with dpkg, from the release build.
@Suite("Packaging/deb/postrm: hooks go with the package, state with the purge")
struct PackagePostrmTests {
    private static let postrm = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Packaging/deb/postrm").path

    /// A root with both hook files as `hooks install` writes them on the real root, the
    /// service's history, and the link `systemctl enable` makes.
    private static func makeRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-postrm-\(UUID().uuidString.prefix(8))")
        let files = HookFiles(aptParts: root.path + "/etc/apt/apt.conf.d/", dpkgParts: root.path + "/etc/dpkg/dpkg.cfg.d/")
        for folder in ["etc/apt/apt.conf.d", "etc/dpkg/dpkg.cfg.d", "var/lib/installtop", "etc/systemd/system/multi-user.target.wants"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try files.aptText(relay: "/usr/bin/installtop-relay", socket: "/run/installtop.sock",
                          keeper: ("/usr/bin/installtop", "/var/lib/installtop/history.sqlite3"))
            .write(toFile: files.aptFile, atomically: true, encoding: .utf8)
        try files.dpkgText(relay: "/usr/bin/installtop-relay", socket: "/run/installtop.sock")
            .write(toFile: try #require(files.dpkgFile), atomically: true, encoding: .utf8)
        try Data().write(to: root.appendingPathComponent("var/lib/installtop/history.sqlite3"))
        try FileManager.default.createSymbolicLink(atPath: root.path + "/etc/systemd/system/multi-user.target.wants/installtop.service",
                                                   withDestinationPath: "/lib/systemd/system/installtop.service")
        return root
    }

    /// Runs `postrm ACTION` with `DPKG_ROOT=root`, as dpkg --root --force-script-chrootless does.
    private static func runPostrm(_ action: String, root: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [postrm, action]
        process.environment = ["DPKG_ROOT": root.path, "PATH": "/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func exists(_ root: URL, _ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: root.path + "/" + path)) != nil
    }

    @Test("remove deletes both hook files and keeps the history and the enable link")
    func remove() throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.runPostrm("remove", root: root) == 0)
        #expect(!Self.exists(root, "etc/apt/apt.conf.d/\(HookFiles.fileName)"))
        #expect(!Self.exists(root, "etc/dpkg/dpkg.cfg.d/\(HookFiles.fileName)"))
        #expect(Self.exists(root, "var/lib/installtop/history.sqlite3"))
        #expect(Self.exists(root, "etc/systemd/system/multi-user.target.wants/installtop.service"))
    }

    @Test("a file of the hooks' name that installtop did not write is left, as hooks remove leaves it")
    func foreignFile() throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let foreign = root.path + "/etc/apt/apt.conf.d/\(HookFiles.fileName)"
        try "APT::Get::Assume-Yes \"true\";\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        #expect(try Self.runPostrm("remove", root: root) == 0)
        #expect(FileManager.default.fileExists(atPath: foreign))
    }

    @Test("purge also deletes the service's state and the enable link with its emptied folder, not a mask")
    func purge() throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: root.path + "/etc/systemd/system/installtop.service", withDestinationPath: "/dev/null")
        #expect(try Self.runPostrm("purge", root: root) == 0)
        #expect(!Self.exists(root, "var/lib/installtop"))
        #expect(!Self.exists(root, "etc/systemd/system/multi-user.target.wants"))
        #expect(Self.exists(root, "etc/systemd/system/installtop.service"))
        #expect(!Self.exists(root, "etc/apt/apt.conf.d/\(HookFiles.fileName)"))
    }
}
