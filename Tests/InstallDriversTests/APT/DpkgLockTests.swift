import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Testing

/// An apt job refuses a locked dpkg database before anything runs.
@Suite("apt: dpkg's lock")
struct DpkgLockTests {
    @Test("free, then held by another process (with its pid), then free again")
    func lock() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let admin = apt.root + "/var/lib/dpkg"
        #expect(DpkgLock.state(administrativeDirectory: admin) == .free)

        // flock(1) would take a different kind of lock; hold an fcntl lock as apt does, in a
        // child, because a process never sees its own fcntl locks as held.
        let ready = admin + "/holder-ready"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import fcntl, os, sys, time
            fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)
            fcntl.lockf(fd, fcntl.LOCK_EX)
            open(sys.argv[2], "w").close()
            sys.stdin.read()
            """, admin + "/lock-frontend", ready]
        let stdin = Pipe()
        holder.standardInput = stdin
        try holder.run()
        defer {
            try? stdin.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: ready), ContinuousClock.now < deadline { usleep(5_000) }
        #expect(DpkgLock.state(administrativeDirectory: admin) == .held(by: holder.processIdentifier))

        try stdin.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(DpkgLock.state(administrativeDirectory: admin) == .free)
    }

    @Test("the command lines: the simulation acts as the transaction does; without a gate the transaction keeps apt's own safe point and asks nothing")
    func commandLines() {
        let upgrade = APTCommandLine(request: .upgrade)
        #expect(upgrade.simulation == ["/usr/bin/apt-get", "-s", "upgrade"])
        #expect(APTCommandLine(request: .install(["curl"])).downloadList == ["/usr/bin/apt-get", "--print-uris", "-qq", "install", "curl"])
        #expect(APTCommandLine(request: .remove(["telnet"])).transaction(through: nil) == [
            "/usr/bin/apt-get", "-y", "-o", "APT::Status-Fd=3", "-o", "APT::Immediate-Configure-All=1",
            "-o", "DPkg::Options::=--force-confdef", "-o", "DPkg::Options::=--force-confold", "-o", "DPkg::StopOnError=false", "remove", "telnet",
        ])
        #expect(APTCommandLine(request: .fullUpgrade).simulation.last == "dist-upgrade")
        #expect(APTCommandLine.environment["DEBIAN_FRONTEND"] == "noninteractive")
    }
}
