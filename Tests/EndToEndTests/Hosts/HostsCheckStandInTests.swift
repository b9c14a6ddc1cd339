import APTTestSupport
import Foundation
import Glibc
import TestProcessSupport
import Testing

/// `hosts check` and `enroll` through a stand-in `ssh` on PATH that runs the remote command on
/// this machine, against a private apt root (`--apt-config`), so that nothing but files of the
/// test's is read or written: what they do when ssh leaves something holding its pipes, and the
/// usage errors that stop them before any host is reached.
@Suite("hosts check and enroll: a stand-in ssh")
struct HostsCheckStandInTests {
    @Test("a process ssh left behind holding its stdout and stderr (as a ControlPersist master does) holds up neither the check nor its answer; a host ssh cannot reach is named with ssh's words")
    func leftBehindHolderHoldsNothingUp() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let root = try APTTestRoot(folder: folder.file("root"))
        let holder = folder.file("holder.pid")
        try FileManager.default.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
        // The holder sleeps long past the test's own time limit; the test ends it by its pid.
        let ssh = try folder.script("bin/ssh", """
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            shift
            case $1 in
            down) echo "ssh: connect to host down port 22: Connection refused" >&2; exit 255 ;;
            esac
            sleep 3600 &
            echo $! > '\(holder)'
            exec /bin/sh -c "$2"
            """)
        defer {
            if let pid = (try? String(contentsOfFile: holder, encoding: .utf8)).flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
                kill(pid, SIGKILL)
            }
        }
        let path = URL(fileURLWithPath: ssh).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let check = try await installtop(["hosts", "check", "--host", "here", "--host", "down", "--apt-config", root.configuration],
                                         in: folder, environment: ["PATH": path], timeout: .seconds(120))
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.hasPrefix("here: installtop: no installtop: dpkg knows no installtop package\n"), "\(check.stdout)")
        #expect(check.stdout.contains("down: unreachable: ssh: connect to host down port 22: Connection refused\n"), "\(check.stdout)")
        #expect(check.stdout.hasSuffix("2 hosts: 0 ready, 1 lacking something, 1 unreachable\n"), "\(check.stdout)")
        #expect(FileManager.default.fileExists(atPath: holder), "the stand-in started its holder")
    }

    @Test("enroll without a package to find names Scripts/build-deb and --package; a package of another version is refused; both exit 2 before any host is reached")
    func packageErrors() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let version = try await installtop(["--version"], in: folder).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // A copy in a build folder of the test's own, whose deb folder beside it is empty, as
        // is the working directory's .build/deb (a checkout's may hold a package).
        let copy = folder.file("build/debug/installtop")
        try FileManager.default.createDirectory(atPath: folder.file("build/debug"), withIntermediateDirectories: true)
        try ExecutableFile.copy(try InstalltopBinary.path(), to: copy)
        let missing = try await InstalltopProcess(["enroll", "--host", "h1"], in: folder, executable: copy, workingDirectory: folder.path).finish()
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("no installtop_\(version)_"), "\(missing.stderr)")
        #expect(missing.stderr.contains(folder.file("build/deb")), "it names where it looked: \(missing.stderr)")
        #expect(missing.stderr.contains("build it with Scripts/build-deb in installtop's checkout, or give --package FILE.deb"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)

        let tree = folder.file("other")
        try FileManager.default.createDirectory(atPath: tree + "/DEBIAN", withIntermediateDirectories: true)
        try "Package: installtop\nVersion: 0.0.1\nArchitecture: all\nMaintainer: t <t@invalid>\nDescription: another version\n"
            .write(toFile: tree + "/DEBIAN/control", atomically: true, encoding: .utf8)
        try TestCommand.check(["/usr/bin/dpkg-deb", "--root-owner-group", "--build", tree, folder.file("installtop_0.0.1_all.deb")])
        let other = try await installtop(["enroll", "--host", "h1", "--package", folder.file("installtop_0.0.1_all.deb")], in: folder)
        #expect(other.status == 2, "\(other.stdout)\(other.stderr)")
        #expect(other.stderr.contains("is installtop 0.0.1 and this installtop is \(version): the board expects its own version on every host"),
                "\(other.stderr)")
    }

    @Test("enroll through an ssh that logs in as a user who is not root (nobody) stops at the package step before copying anything, names the user and the fix, and exits 1")
    func notRoot() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o755)
        let root = try APTTestRoot(folder: folder.file("root"))
        // Readable by nobody, so that what stops enroll is the user, not the configuration.
        chmod(folder.file("root"), 0o755)
        chmod(root.configuration, 0o644)
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) runs the remote command as nobody")
        try FileManager.default.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
        let ssh = try folder.script("bin/ssh", """
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            shift
            cd /
            exec \(setpriv) --reuid=65534 --regid=65534 --clear-groups /bin/sh -c "$2"
            """)
        let version = try await installtop(["--version"], in: folder).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let tree = folder.file("package")
        try FileManager.default.createDirectory(atPath: tree + "/DEBIAN", withIntermediateDirectories: true)
        try "Package: installtop\nVersion: \(version.replacingOccurrences(of: "-", with: "~"))\nArchitecture: all\nMaintainer: t <t@invalid>\nDescription: t\n"
            .write(toFile: tree + "/DEBIAN/control", atomically: true, encoding: .utf8)
        let deb = folder.file("installtop.deb")
        try TestCommand.check(["/usr/bin/dpkg-deb", "--root-owner-group", "--build", tree, deb])
        let path = URL(fileURLWithPath: ssh).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let enroll = try await installtop(["enroll", "--host", "here", "--package", deb, "--apt-config", root.configuration],
                                          in: folder, environment: ["PATH": path], timeout: .seconds(120))
        #expect(enroll.status == 1, "\(enroll.stdout)\(enroll.stderr)")
        #expect(enroll.stdout.contains("here: package: failed: the steps would run as nobody (uid 65534), not as root\n"), "\(enroll.stdout)")
        #expect(enroll.stdout.contains("here:     fix: log in as root (ssh's User, an inventory's ansible_user=root), or give --sudo"), "\(enroll.stdout)")
        #expect(!enroll.stdout.contains("copying"), "nothing is copied:\n\(enroll.stdout)")
    }

    @Test("an --apt-config the host's user cannot read stops the check with that, never falling back to the host's own root (apt-config only warns)")
    func unreadableAptConfig() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
        let ssh = try folder.script("bin/ssh", """
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            shift
            exec /bin/sh -c "$2"
            """)
        let path = URL(fileURLWithPath: ssh).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let missing = folder.file("no-such-apt.conf")
        let check = try await installtop(["hosts", "check", "--host", "here", "--apt-config", missing], in: folder, environment: ["PATH": path])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.hasPrefix("here: apt: apt cannot read its configuration: cannot read \(missing) as root\n"), "\(check.stdout)")
    }
}
