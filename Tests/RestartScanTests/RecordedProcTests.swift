import Foundation
import Glibc
import RestartScan
import Testing

/// The scan over a `/proc` written by the test: what counts as stale in `maps`, the grouping,
/// the user's name, and the processes it cannot read.
@Suite("scan of a recorded /proc")
struct RecordedProcTests {
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

    @Test("deleted and replaced executable mappings are listed; the rest of maps is not")
    func staleMappings() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("root/usr/lib/libc.so.6", "new libc")
        try folder.write("root/usr/lib/libz.so.1", "current libz")
        try folder.write("root/usr/sbin/nginx", "current nginx")
        try folder.write("root/etc/passwd", "root:x:0:0:root:/root:/bin/bash\n")
        let dev = device(of: folder.file("root/usr/lib/libc.so.6"))
        let libz = inode(of: folder.file("root/usr/lib/libz.so.1"))
        let nginx = inode(of: folder.file("root/usr/sbin/nginx"))
        let oldLibc = inode(of: folder.file("root/usr/lib/libc.so.6")) + 1_000_000
        try folder.write("proc/100/comm", "nginx\n")
        try folder.write("proc/100/cgroup", "0::/system.slice/nginx.service\n")
        try folder.write("proc/100/maps", """
            55d0a0000000-55d0a0100000 r-xp 00020000 \(dev) \(nginx)    /usr/sbin/nginx
            7f0000000000-7f0000100000 r-xp 00028000 \(dev) 4242       /usr/lib/libssl.so.3 (deleted)
            7f0000100000-7f0000200000 r--p 00000000 \(dev) 4243       /usr/lib/libcrypto.so.3 (deleted)
            7f0000200000-7f0000300000 r-xp 00028000 \(dev) \(oldLibc)   /usr/lib/libc.so.6
            7f0000300000-7f0000400000 r-xp 00028000 \(dev) \(libz)     /usr/lib/libz.so.1
            7f0000400000-7f0000500000 r-xp 00000000 00:01 77         /memfd:jit (deleted)
            7f0000500000-7f0000600000 r-xp 00000000 00:00 0          [vdso]
            7f0000600000-7f0000700000 rw-p 00000000 00:00 0 

            """)
        try FileManager.default.createSymbolicLink(atPath: folder.file("proc/100/exe"), withDestinationPath: "/usr/sbin/nginx")

        let advice = folder.scanner.scan()

        #expect(advice.processes == [StaleProcess(
            pid: 100, command: "nginx", uid: 0, user: "root", owner: .service(unit: "nginx.service"),
            files: [StaleFile(path: "/usr/lib/libssl.so.3", change: .deleted), StaleFile(path: "/usr/lib/libc.so.6", change: .replaced)])])
        #expect(advice.services == ["nginx.service"])
        #expect(advice.needsAction)
    }

    @Test("a deleted executable comes first; kernel threads and current processes are left out")
    func executableFirst() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("proc/7/comm", "sshd\n")
        try folder.write("proc/7/cgroup", "0::/user.slice/user-0.slice/session-1.scope\n")
        try folder.write("proc/7/maps", """
            7f0000000000-7f0000100000 r-xp 00028000 fd:01 4242 /usr/lib/libcrypto.so.3 (deleted)
            55d0a0000000-55d0a0100000 r-xp 00020000 fd:01 99 /usr/sbin/sshd (deleted)

            """)
        try FileManager.default.createSymbolicLink(atPath: folder.file("proc/7/exe"), withDestinationPath: "/usr/sbin/sshd (deleted)")
        try folder.write("proc/2/comm", "kthreadd\n")
        try folder.write("proc/2/maps", "")
        try folder.write("proc/self/comm", "not a pid\n")

        let advice = folder.scanner.scan()

        #expect(advice.processes.map(\.pid) == [7])
        #expect(advice.processes.first?.files.map(\.path) == ["/usr/sbin/sshd", "/usr/lib/libcrypto.so.3"])
        #expect(advice.processes.first?.owner == .session(name: "session-1.scope"))
        // No passwd under the root: the uid stands for the name.
        #expect(advice.processes.first?.user == "0")
        #expect(advice.services.isEmpty)
    }

    @Test("a process whose maps cannot be read is listed as unreadable with the reason")
    func unreadable() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("proc/300/comm", "secret\n")
        try FileManager.default.createDirectory(atPath: folder.file("proc/300/maps"), withIntermediateDirectories: true)

        let advice = folder.scanner.scan()

        #expect(advice.processes.isEmpty)
        #expect(advice.unreadable == [UnreadableProcess(pid: 300, command: "secret", reason: "Is a directory")])
        #expect(!advice.needsAction)
    }

    @Test("groups: services by unit, then sessions, containers, bare processes")
    func groups() {
        let file = [StaleFile(path: "/usr/lib/libc.so.6", change: .deleted)]
        let process = { (pid: Int32, owner: ProcessOwner) in
            StaleProcess(pid: pid, command: "p\(pid)", uid: 0, user: "root", owner: owner, files: file)
        }
        let advice = RestartAdvice(processes: [
            process(1, .bare), process(2, .service(unit: "z.service")), process(3, .session(name: "session-1.scope")),
            process(4, .service(unit: "a.service")), process(5, .container(name: "c1")), process(6, .service(unit: "z.service")),
        ])

        #expect(advice.groups.map(\.owner) == [
            .service(unit: "a.service"), .service(unit: "z.service"), .session(name: "session-1.scope"), .container(name: "c1"), .bare,
        ])
        #expect(advice.groups.map { $0.processes.map(\.pid) } == [[4], [2, 6], [3], [5], [1]])
        #expect(advice.services == ["a.service", "z.service"])
    }
}
