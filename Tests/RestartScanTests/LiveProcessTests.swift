import Foundation
import Glibc
import RestartScan
import TestProcessSupport
import Testing

/// The scan of this machine's `/proc` over processes the test starts, after replacing their
/// files the way dpkg does (write `X.dpkg-new`, rename it over `X`).
@Suite("scan of live processes", .serialized)
struct LiveProcessTests {
    private static let library = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libz.so.1").resolvingSymlinksInPath().path

    /// Replaces `path` as dpkg does: the new content goes to `path.dpkg-new`, renamed over `path`.
    private func replaceLikeDpkg(_ path: String) throws {
        try FileManager.default.copyItem(atPath: path, toPath: path + ".dpkg-new")
        #expect(rename(path + ".dpkg-new", path) == 0)
    }

    @Test("a process that maps a replaced library is listed with that file; one that does not, is not")
    func replacedLibrary() async throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        let copy = folder.file("libz-copy.so.1")
        try FileManager.default.copyItem(atPath: Self.library, toPath: copy)
        let user = try PreloadingSleeper(preloading: copy)
        defer { user.stop() }
        let bystander = try PreloadingSleeper(preloading: "")
        defer { bystander.stop() }
        #expect(await eventually { user.maps(copy) && bystander.maps("libc") })

        let before = RestartScanner().scan()
        try replaceLikeDpkg(copy)
        let after = RestartScanner().scan()

        #expect(!before.processes.contains { $0.pid == user.pid })
        let listed = after.processes.first { $0.pid == user.pid }
        #expect(listed?.files == [StaleFile(path: copy, change: .deleted)])
        #expect(listed?.command == "sleep")
        #expect(listed?.user == "root" || listed?.uid != 0)
        #expect(!after.processes.contains { $0.pid == bystander.pid })
    }

    @Test("a replaced executable is listed with its path first")
    func replacedExecutable() async throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        let executable = folder.file("sleep")
        try ExecutableFile.copy("/bin/sleep", to: executable)
        let sleeper = try PreloadingSleeper(preloading: "", executable: executable)
        defer { sleeper.stop() }
        #expect(await eventually { sleeper.maps("libc") })

        try replaceLikeDpkg(executable)
        let listed = RestartScanner().scan().processes.first { $0.pid == sleeper.pid }

        #expect(listed?.files.first == StaleFile(path: executable, change: .deleted))
    }

    /// The kernel marks the unlinked name, not the inode: a scan that compared inodes only would
    /// miss nothing here, but one that looked for a vanished inode would.
    @Test("a library replaced while another hard link keeps the old file alive is still listed")
    func replacedKeptByHardLink() async throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        let copy = folder.file("libz-copy.so.1")
        try FileManager.default.copyItem(atPath: Self.library, toPath: copy)
        let user = try PreloadingSleeper(preloading: copy)
        defer { user.stop() }
        #expect(await eventually { user.maps(copy) })

        #expect(link(copy, copy + ".kept") == 0)
        try replaceLikeDpkg(copy)
        let listed = RestartScanner().scan().processes.first { $0.pid == user.pid }

        #expect(listed?.files == [StaleFile(path: copy, change: .deleted)])
    }

    @Test("a process in a cgroup v2 of its own is named by that cgroup's unit (root, cgroup v2 only)",
          .enabled(if: LiveCgroup.available))
    func ownCgroup() async throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        let copy = folder.file("libz-copy.so.1")
        try FileManager.default.copyItem(atPath: Self.library, toPath: copy)
        let cgroup = try LiveCgroup(unit: "installtop-restart-test-\(getpid()).service")
        defer { cgroup.remove() }
        let user = try PreloadingSleeper(preloading: copy)
        defer { user.stop() }
        try cgroup.add(user.pid)
        #expect(await eventually { user.maps(copy) })

        try replaceLikeDpkg(copy)
        let listed = RestartScanner().scan().processes.first { $0.pid == user.pid }

        #expect(listed?.owner == .service(unit: cgroup.unit))
    }

    @Test("a chroot's process is judged by its own root: a library replaced only in the host's root leaves it out, one its root replaced lists it apart (root)",
          .enabled(if: PrivateRoot.available))
    func chrootProcess() async throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        let jail = try PrivateRoot(at: folder.file("jail"))
        defer { jail.remove() }
        let hostReplaced = folder.file("host-replaced.so.1")
        let jailReplaced = folder.file("jail-replaced.so.1")
        for path in [hostReplaced, jailReplaced] {
            try FileManager.default.copyItem(atPath: Self.library, toPath: path)
            try jail.copy(Self.library, to: path)
        }
        let kept = try jail.sleeper(preloading: hostReplaced)
        defer { kept.stop() }
        let stale = try jail.sleeper(preloading: jailReplaced)
        defer { stale.stop() }
        let host = try PreloadingSleeper(preloading: hostReplaced)
        defer { host.stop() }
        #expect(await eventually { kept.maps(jail.path + hostReplaced) && stale.maps(jail.path + jailReplaced) && host.maps(hostReplaced) })

        try replaceLikeDpkg(hostReplaced)
        try replaceLikeDpkg(jail.path + jailReplaced)
        let advice = RestartScanner().scan()

        #expect(advice.processes.first { $0.pid == host.pid }?.files == [StaleFile(path: hostReplaced, change: .deleted)])
        #expect(!advice.processes.contains { [kept.pid, stale.pid].contains($0.pid) })
        #expect(!advice.otherRoots.contains { $0.pid == kept.pid })
        let apart = advice.otherRoots.first { $0.pid == stale.pid }
        #expect(apart?.root == jail.path)
        #expect(apart?.files == [StaleFile(path: jailReplaced, change: .deleted)])
    }
}
