import Foundation
import Glibc
import RestartScan
import Testing

/// The scan over a `/proc` written by the test whose processes have roots of their own
/// (`proc/PID/root` links to folders): each process's files are looked up in its own root,
/// and processes of another root are kept apart.
@Suite("scan of a recorded /proc with other roots")
struct RecordedRootTests {
    /// `maps`'s `MAJOR:MINOR` for the device of `path`.
    private func device(of path: String) -> String {
        var info = stat()
        stat(path, &info)
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        return String(major, radix: 16) + ":" + String(format: "%02x", minor)
    }

    private func inode(of path: String) -> UInt64 {
        var info = stat()
        stat(path, &info)
        return UInt64(info.st_ino)
    }

    /// `proc/PID/root` (or `proc/self/root`) as a link to `target`.
    private func root(_ folder: ScanFolder, _ process: String, _ target: String) throws {
        try FileManager.default.createDirectory(atPath: folder.file("proc/" + process), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("proc/\(process)/root"), withDestinationPath: target)
    }

    @Test("a chroot's process is checked against its own root's files and kept apart; the scanned root's is listed")
    func chrootProcess() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        // The same paths in the scanned root and in a chroot, each its own file on one device.
        for tree in ["root", "jail"] {
            try folder.write("\(tree)/usr/lib/libz.so.1", "libz of \(tree)")
            try folder.write("\(tree)/usr/lib/libssl.so.3", "libssl of \(tree)")
        }
        try folder.write("jail/etc/passwd", "jailer:x:0:0::/:/bin/sh\n")
        let jail = folder.file("jail")
        let dev = device(of: folder.file("root/usr/lib/libz.so.1"))
        let rootZ = inode(of: folder.file("root/usr/lib/libz.so.1"))
        let jailZ = inode(of: folder.file("jail/usr/lib/libz.so.1"))
        let oldJailSSL = inode(of: folder.file("jail/usr/lib/libssl.so.3")) + 1_000_000
        try root(folder, "self", folder.file("root"))
        // In the chroot: current libz, a replaced libssl (the chroot's own upgrade).
        try root(folder, "100", jail)
        try folder.write("proc/100/comm", "nginx\n")
        try folder.write("proc/100/maps", """
            7f0000000000-7f0000100000 r-xp 00000000 \(dev) \(jailZ)    \(jail)/usr/lib/libz.so.1
            7f0000100000-7f0000200000 r-xp 00000000 \(dev) \(oldJailSSL)    \(jail)/usr/lib/libssl.so.3

            """)
        // In the chroot too, only its current libz: not listed, though the scanned root's libz
        // at that path is another file on the same device.
        try root(folder, "101", jail)
        try folder.write("proc/101/comm", "sleep\n")
        try folder.write("proc/101/maps", "7f0000000000-7f0000100000 r-xp 00000000 \(dev) \(jailZ)    \(jail)/usr/lib/libz.so.1\n")
        // In the scanned root: libz current, libssl deleted.
        try root(folder, "200", folder.file("root"))
        try folder.write("proc/200/comm", "sshd\n")
        try folder.write("proc/200/maps", """
            7f0000000000-7f0000100000 r-xp 00000000 \(dev) \(rootZ)    /usr/lib/libz.so.1
            7f0000100000-7f0000200000 r-xp 00000000 \(dev) 4242    /usr/lib/libssl.so.3 (deleted)

            """)

        let advice = folder.scanner.scan()

        #expect(advice.processes.map(\.pid) == [200])
        #expect(advice.processes.first?.files == [StaleFile(path: "/usr/lib/libssl.so.3", change: .deleted)])
        #expect(advice.otherRoots == [StaleProcess(
            pid: 100, command: "nginx", uid: 0, user: "jailer", owner: .bare,
            files: [StaleFile(path: "/usr/lib/libssl.so.3", change: .replaced)], root: jail)])
        #expect(advice.services.isEmpty)
    }

    /// The scanner inside a chroot sees the host's processes map paths of the host's root; the
    /// chroot's own file at that path is no sign that they run replaced code.
    @Test("a process of another root whose mapping lies outside that root says nothing but a deletion")
    func outsideItsRoot() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("root/usr/lib/libz.so.1", "libz of the scanned root")
        try folder.write("jail/usr/lib/libz.so.1", "libz of the chroot")
        let dev = device(of: folder.file("root/usr/lib/libz.so.1"))
        let otherZ = inode(of: folder.file("jail/usr/lib/libz.so.1"))
        try root(folder, "self", folder.file("root"))
        try root(folder, "300", folder.file("jail"))
        try folder.write("proc/300/comm", "sshd\n")
        try folder.write("proc/300/maps", """
            7f0000000000-7f0000100000 r-xp 00000000 \(dev) \(otherZ)    /usr/lib/libz.so.1
            7f0000100000-7f0000200000 r-xp 00000000 \(dev) 4243    /usr/lib/libcrypto.so.3 (deleted)

            """)

        let advice = folder.scanner.scan()

        #expect(advice.processes.isEmpty)
        #expect(advice.otherRoots.map(\.pid) == [300])
        #expect(advice.otherRoots.first?.files == [StaleFile(path: "/usr/lib/libcrypto.so.3", change: .deleted)])
        #expect(!advice.needsAction)
        #expect(advice.headline == "Nothing in this root runs deleted or replaced code; no reboot needed.")
    }

    @Test("a library deleted and made again: the process that maps both the old and the new file is listed, one that maps only the new is not")
    func deletedThenRecreated() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("root/usr/lib/libz.so.1", "the new libz")
        let dev = device(of: folder.file("root/usr/lib/libz.so.1"))
        let newZ = inode(of: folder.file("root/usr/lib/libz.so.1"))
        try folder.write("proc/400/comm", "old\n")
        try folder.write("proc/400/maps", """
            7f0000000000-7f0000100000 r-xp 00000000 \(dev) \(newZ)    /usr/lib/libz.so.1
            7f0000100000-7f0000200000 r-xp 00000000 \(dev) \(newZ + 1)    /usr/lib/libz.so.1 (deleted)

            """)
        try folder.write("proc/401/comm", "new\n")
        try folder.write("proc/401/maps", "7f0000000000-7f0000100000 r-xp 00000000 \(dev) \(newZ)    /usr/lib/libz.so.1\n")

        let advice = folder.scanner.scan()

        #expect(advice.processes.map(\.pid) == [400])
        #expect(advice.processes.first?.files == [StaleFile(path: "/usr/lib/libz.so.1", change: .deleted)])
    }
}
