import Foundation
import InstallEngine
import Testing
@testable import InstallDrivers

/// dpkg's log as the watcher reads it without hooks: its lines parsed, only what was appended
/// read, through rotation and truncation; the packages a running dpkg's arguments name.
@Suite("dpkg's log: lines, incremental reading, dpkg's arguments")
struct DpkgLogTests {
    @Test("Lines: a state, an install with its versions, an upgrade, a removal, a configure, a trigger run, startup and conffile lines")
    func lines() throws {
        let status = try #require(DpkgLogLine("2026-11-23 13:11:19 status half-installed lab-app:all 1.0"))
        #expect(status.time == "2026-11-23 13:11:19")
        #expect(status.status == .status(package: "lab-app", state: "half-installed"))
        #expect(status.change == nil)
        let install = try #require(DpkgLogLine("2026-11-23 13:11:19 install lab-app:all <none> 1.0"))
        #expect(install.status == .processing(action: "install", package: "lab-app"))
        #expect(install.change == PackageChange(package: "lab-app", action: .install, newVersion: "1.0", architecture: "all"))
        #expect(DpkgLogLine("2026-11-23 13:11:19 upgrade libc6:amd64 2.36-9 2.36-9+deb12u4")?.change
            == PackageChange(package: "libc6", action: .upgrade, oldVersion: "2.36-9", newVersion: "2.36-9+deb12u4", architecture: "amd64"))
        #expect(DpkgLogLine("2026-11-23 13:11:19 remove lab-old:all 0.9 <none>")?.change
            == PackageChange(package: "lab-old", action: .remove, oldVersion: "0.9", architecture: "all"))
        #expect(DpkgLogLine("2026-11-23 13:11:19 configure lab-app:all 1.0 <none>")?.status == .processing(action: "configure", package: "lab-app"))
        #expect(DpkgLogLine("2026-11-23 13:11:19 trigproc man-db:amd64 2.11.2-2 <none>")?.status == .processing(action: "trigproc", package: "man-db"))
        #expect(DpkgLogLine("2026-11-23 13:11:19 startup archives unpack")?.status == nil)
        #expect(DpkgLogLine("2026-11-23 13:11:19 conffile /etc/x keep")?.status == nil)
        #expect(DpkgLogLine("garbage") == nil)
    }

    @Test("Only what was appended is read; a cut line waits for its end; a rotated file's rest comes before the new file; a truncation starts over")
    func follower() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dpkglog-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/dpkg.log"
        try "old line before the start\n".write(toFile: log, atomically: false, encoding: .utf8)
        var follower = DpkgLogFollower(path: log)
        defer { follower.close() }
        #expect(follower.read().isEmpty, "what was there before is not read")

        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data("one\ntw".utf8))
        #expect(follower.read() == ["one"])
        handle.write(Data("o\n".utf8))
        #expect(follower.read() == ["two"])

        // logrotate renames the file while dpkg still writes to it, and a new one appears.
        try FileManager.default.moveItem(atPath: log, toPath: log + ".1")
        handle.write(Data("three\n".utf8))
        handle.closeFile()
        try "four\n".write(toFile: log, atomically: false, encoding: .utf8)
        #expect(follower.read() == ["three", "four"])

        // copytruncate: the file is cut to nothing and written again.
        let truncating = try #require(FileHandle(forWritingAtPath: log))
        truncating.truncateFile(atOffset: 0)
        truncating.write(Data("five\n".utf8))
        truncating.closeFile()
        #expect(follower.read() == ["five"])
        #expect(follower.read().isEmpty)
    }

    @Test("Started some way back, the first cut line is skipped")
    func backlog() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dpkglog-back-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "aaaaaaaaaa\nbbbb\ncccc\n".write(toFile: path, atomically: false, encoding: .utf8)
        var follower = DpkgLogFollower(path: path, startingAt: 8)
        defer { follower.close() }
        #expect(follower.read() == ["cccc"])
        var whole = DpkgLogFollower(path: path, startingAt: 1 << 20)
        defer { whole.close() }
        #expect(whole.read() == ["aaaaaaaaaa", "bbbb", "cccc"])
    }

    @Test("dpkg's arguments: apt's archives with an epoch, --configure and --remove lists")
    func arguments() {
        #expect(DpkgLogWatcher.changes(inDpkgArguments: [
            "/usr/bin/dpkg", "--status-fd", "23", "--no-triggers", "--unpack", "--auto-deconfigure",
            "/var/cache/apt/archives/lab-a_1.0_all.deb", "/var/cache/apt/archives/libfoo_1%3a2.0-1_amd64.deb",
        ]) == [
            PackageChange(package: "lab-a", action: .install, newVersion: "1.0", architecture: "all"),
            PackageChange(package: "libfoo", action: .install, newVersion: "1:2.0-1", architecture: "amd64"),
        ])
        #expect(DpkgLogWatcher.changes(inDpkgArguments: ["/usr/bin/dpkg", "--status-fd", "23", "--configure", "lab-a:all", "lab-b:amd64"])
            .map(\.package) == ["lab-a", "lab-b"])
        #expect(DpkgLogWatcher.changes(inDpkgArguments: ["/usr/bin/dpkg", "--force-depends", "--remove", "lab-old:all"])
            == [PackageChange(package: "lab-old", action: .remove)])
        #expect(DpkgLogWatcher.changes(inDpkgArguments: ["/usr/bin/dpkg", "--configure", "--pending"]).isEmpty)
    }

    @Test("The log a root's dpkg options name, else dpkg.cfg's last log line")
    func logPath() throws {
        #expect(DpkgLogSource.logPath(dpkgOptions: ["--root=/r", "--log=/r/var/log/dpkg.log", "--force-script-chrootless"]) == "/r/var/log/dpkg.log")
        #expect(DpkgLogSource.logPath(dpkgOptions: ["--log", "/x.log"]) == "/x.log")
        #expect(DpkgLogSource.logPath(dpkgOptions: ["--root=/r"]) == nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dpkgcfg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder + "/dpkg.cfg.d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "# log /nope\nno-debsig\nlog /var/log/dpkg.log\n".write(toFile: folder + "/dpkg.cfg", atomically: false, encoding: .utf8)
        #expect(DpkgLogSource.logPath(configuration: folder) == "/var/log/dpkg.log")
        try "log=/var/log/other.log\n".write(toFile: folder + "/dpkg.cfg.d/50local", atomically: false, encoding: .utf8)
        #expect(DpkgLogSource.logPath(configuration: folder) == "/var/log/other.log")
    }
}
