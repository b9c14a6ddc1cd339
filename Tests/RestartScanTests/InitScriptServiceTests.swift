import Foundation
import Glibc
import RestartScan
import Testing

/// Services an init script started outside systemd (rule 32): a recorded `/proc` whose
/// processes sit in a login session's cgroup, with pid files under the root's `run/` and
/// scripts in its `etc/init.d`.
@Suite("init scripts' services in a recorded /proc")
struct InitScriptServiceTests {
    private static let session = "0::/user.slice/user-0.slice/session-1.scope\n"
    private static let deletedLibrary = "7f0000000000-7f0000100000 r-xp 00000000 fd:01 4242 /usr/lib/libssl.so.3 (deleted)\n"

    /// A recorded process in the login session that maps a deleted library, started
    /// `startedAgo` seconds before `now` on a machine booted `bootedAgo` seconds before it.
    private func process(_ folder: ScanFolder, pid: Int32, parent: Int32, command: String, startedAgo: Double, bootedAgo: Double,
                         cgroup: String = session) throws {
        let ticks = UInt64((bootedAgo - startedAgo) * Double(sysconf(Int32(_SC_CLK_TCK))))
        try folder.write("proc/\(pid)/comm", command + "\n")
        try folder.write("proc/\(pid)/cgroup", cgroup)
        try folder.write("proc/\(pid)/maps", Self.deletedLibrary)
        // Fields 3 to 21, then the start time (22) and a few more, after a command with a space and a parenthesis.
        let fields = ["S", String(parent)] + Array(repeating: "0", count: 17) + [String(ticks), "0", "0"]
        try folder.write("proc/\(pid)/stat", "\(pid) (\(command) (x)) " + fields.joined(separator: " ") + "\n")
    }

    /// A pid file naming `pid`, last written `writtenAgo` seconds before `now`.
    private func pidFile(_ folder: ScanFolder, _ path: String, pid: Int32, writtenAgo: Double, now: Date) throws {
        try folder.write("root/run/" + path, "\(pid)\n")
        try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-writtenAgo)], ofItemAtPath: folder.file("root/run/" + path))
    }

    @Test("a daemon and its workers named by a pid file whose init script exists are that script's service; the rest stay as they were")
    func pidFiles() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        let now = Date()
        let booted = 100_000.0
        try folder.write("proc/stat", "cpu  1 2 3\nbtime \(Int(now.timeIntervalSince1970 - booted))\nprocesses 4\n")
        for script in ["nginx", "redis-server", "ssh", "memcached"] { try folder.write("root/etc/init.d/" + script, "#!/bin/sh\n") }
        // nginx: the master written in its pid file after it started, a worker under it.
        try process(folder, pid: 500, parent: 1, command: "nginx", startedAgo: 600, bootedAgo: booted)
        try process(folder, pid: 501, parent: 500, command: "nginx", startedAgo: 599, bootedAgo: booted)
        try pidFile(folder, "nginx.pid", pid: 500, writtenAgo: 598, now: now)
        // redis-server, in a folder of its own; sshd.pid is the ssh script's.
        try process(folder, pid: 510, parent: 1, command: "redis-server", startedAgo: 300, bootedAgo: booted)
        try pidFile(folder, "redis/redis-server.pid", pid: 510, writtenAgo: 299, now: now)
        try process(folder, pid: 520, parent: 1, command: "sshd", startedAgo: 900, bootedAgo: booted)
        try pidFile(folder, "sshd.pid", pid: 520, writtenAgo: 899, now: now)
        // A pid file older than its process names the one that had the pid before.
        try process(folder, pid: 530, parent: 1, command: "memcached", startedAgo: 100, bootedAgo: booted)
        try pidFile(folder, "memcached/memcached.pid", pid: 530, writtenAgo: 5_000, now: now)
        // A shell of the session whose parent is the nginx master's parent, not the master.
        try process(folder, pid: 540, parent: 1, command: "bash", startedAgo: 50, bootedAgo: booted)
        // A process a pid file names, with no init script of that name.
        try process(folder, pid: 550, parent: 1, command: "custom", startedAgo: 50, bootedAgo: booted)
        try pidFile(folder, "custom.pid", pid: 550, writtenAgo: 40, now: now)
        // nginx's worker moved to another cgroup is not grouped with its master.
        try process(folder, pid: 560, parent: 500, command: "nginx", startedAgo: 10, bootedAgo: booted, cgroup: "0::/\n")

        let advice = folder.scanner.scan()

        let owners = Dictionary(uniqueKeysWithValues: advice.processes.map { ($0.pid, $0.owner) })
        #expect(owners[500] == .initScript(name: "nginx"))
        #expect(owners[501] == .initScript(name: "nginx"))
        #expect(owners[510] == .initScript(name: "redis-server"))
        #expect(owners[520] == .initScript(name: "ssh"))
        #expect(owners[530] == .session(name: "session-1.scope"))
        #expect(owners[540] == .session(name: "session-1.scope"))
        #expect(owners[550] == .session(name: "session-1.scope"))
        #expect(owners[560] == .bare)
        #expect(advice.services == ["/etc/init.d/nginx", "/etc/init.d/redis-server", "/etc/init.d/ssh"])
        #expect(advice.groups.first?.owner == .initScript(name: "nginx"))
        #expect(advice.groups.first?.processes.map(\.pid) == [500, 501])
        #expect(ProcessOwner.initScript(name: "nginx").restartedBy { $0 } == "/etc/init.d/nginx")
    }

    @Test("a systemd service's process keeps its unit though a pid file names it")
    func systemdUnitFirst() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        let now = Date()
        try folder.write("proc/stat", "btime \(Int(now.timeIntervalSince1970 - 1_000))\n")
        try folder.write("root/etc/init.d/nginx", "#!/bin/sh\n")
        try process(folder, pid: 600, parent: 1, command: "nginx", startedAgo: 100, bootedAgo: 1_000, cgroup: "0::/system.slice/nginx.service\n")
        try pidFile(folder, "nginx.pid", pid: 600, writtenAgo: 99, now: now)

        let advice = folder.scanner.scan()

        #expect(advice.processes.map(\.owner) == [.service(unit: "nginx.service")])
        #expect(advice.services == ["nginx.service"])
    }
}
