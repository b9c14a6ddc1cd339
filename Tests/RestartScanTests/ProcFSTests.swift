import Foundation
import Glibc
import RestartScan
import Testing
import TestProcessSupport

/// The one `/proc` reader: `stat` read right whatever a program calls itself, `status`, and a
/// recorded and the live `/proc`, down to a process that has vanished.
@Suite("the /proc reader")
struct ProcFSTests {
    /// A `stat` line of a process called `command`: fields 4 to 52 hold their own numbers (the
    /// process group 5, the session 6), but for the parent (4: 1), the terminal (7: 34817,
    /// pts/1), the flags (9: `flags`) and the start (22: 93412).
    private func statLine(pid: Int32 = 4242, command: String, state: String = "S", flags: UInt64 = 4_194_560) -> String {
        var fields = (4...52).map(String.init)
        fields[0] = "1"
        fields[3] = "34817"
        fields[5] = String(flags)
        fields[18] = "93412"
        return "\(pid) (\(command)) \(state) " + fields.joined(separator: " ") + "\n"
    }

    @Test("a command with spaces and parentheses: the fields are counted after its last ')'", arguments: [
        "a) b (c", "a) (b c", ") ) )", "(", "x) S 1 2 3 (", "dpkg", " lead", "two\nlines",
    ])
    func hostileCommand(command: String) throws {
        let stat = try #require(ProcessStat(statLine(command: command)))
        #expect(stat.pid == 4242)
        #expect(stat.command == command)
        #expect(stat.state == "S")
        #expect(stat.parent == 1)
        #expect(stat.processGroup == 5)
        #expect(stat.session == 6)
        #expect(stat.terminal == "pts/1")
        #expect(stat.startTicks == 93412)
        #expect(!stat.isDead)
        #expect(!stat.isExiting)
    }

    // Moved from InstallHistoryTests (RecoveryTests), where the history's own parser was tested.
    @Test func procStatIsReadPastAProcessNameWithSpacesAndParentheses() throws {
        let fields = (4...52).map(String.init).joined(separator: " ")
        let line = "1234 (a) (b c) S \(fields)\n"
        let stat = try #require(ProcessStat(line))
        #expect(stat.state == "S")
        #expect(stat.startTicks == 22)
        #expect(ProcessStat("1234 (x) Z 1 2\n") == nil)
        #expect(ProcessStat("garbage") == nil)
    }

    @Test("empty and short texts, an empty command, a field that is not a number")
    func emptyFields() throws {
        #expect(ProcessStat("") == nil)
        #expect(ProcessStat("\n") == nil)
        #expect(ProcessStat("()") == nil)
        #expect(ProcessStat(") 12 (") == nil)
        #expect(ProcessStat(statLine(command: "x").replacingOccurrences(of: "4242 ", with: "")) == nil)
        #expect(ProcessStat(statLine(command: "x", state: "")) == nil)
        #expect(ProcessStat(statLine(command: "x").replacingOccurrences(of: " 93412 ", with: " - ")) == nil)
        #expect(try #require(ProcessStat(statLine(command: ""))).command == "")
        #expect(ProcessStatus("") == ProcessStatus("Name:\tx\n"))
        #expect(ProcessStatus("").realUID == nil)
        #expect(ProcessStatus("Uid:\n").realUID == nil)
        #expect(!ProcessStatus("").isPending(SIGKILL))
    }

    @Test("a zombie is dead; PF_EXITING is exiting; terminals are named as ps names them")
    func stateAndTerminal() throws {
        #expect(try #require(ProcessStat(statLine(command: "z", state: "Z"))).isDead)
        #expect(try #require(ProcessStat(statLine(command: "x", state: "X"))).isDead)
        #expect(try #require(ProcessStat(statLine(command: "e", flags: 0x404044))).isExiting)
        var stat = try #require(ProcessStat(statLine(command: "t")))
        stat.terminalDevice = 0
        #expect(stat.terminal == "")
        stat.terminalDevice = 4 << 8 | 2
        #expect(stat.terminal == "tty2")
        stat.terminalDevice = 137 << 8 | 3
        #expect(stat.terminal == "pts/259")
        stat.terminalDevice = 5 << 8 | 1
        #expect(stat.terminal == "5:1")
    }

    @Test("status: the real uid, the tracer, SIGKILL pending for the thread or its group")
    func status() {
        let text = "Name:\tsleep\nState:\tS (sleeping)\nTracerPid:\t812\nUid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t1000\n"
            + "SigPnd:\t0000000000000000\nShdPnd:\t0000000000000100\n"
        let status = ProcessStatus(text)
        #expect(status.realUID == 1000)
        #expect(status.tracerPID == 812)
        #expect(status.isPending(SIGKILL))
        #expect(!status.isPending(SIGTERM))
        #expect(ProcessStatus("SigPnd:\t0000000000004000\n").isPending(SIGTERM))
    }

    @Test("a recorded /proc: processes, stat, status, cmdline, comm, cgroup, children, btime and boot id")
    func recorded() throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        try folder.write("proc/812/stat", statLine(pid: 812, command: "apt-get"))
        try folder.write("proc/812/status", "Uid:\t0\t0\t0\t0\n")
        try folder.write("proc/812/cmdline", "apt-get\0install\0lab a\0")
        try folder.write("proc/812/comm", "apt-get\n")
        try folder.write("proc/812/cgroup", "0::/user.slice/session-3.scope\n")
        try folder.write("proc/900/stat", statLine(pid: 900, command: "dpkg").replacingOccurrences(of: ") S 1 ", with: ") S 812 "))
        try folder.write("proc/self/stat", statLine(pid: 1, command: "not a pid"))
        try folder.write("proc/stat", "cpu  1 2 3\nbtime 1764000000\nprocesses 9\n")
        try folder.write("proc/sys/kernel/random/boot_id", "2f5c8a0e-0000-4000-8000-000000000001\n")
        let proc = ProcFS(root: folder.file("proc"))

        #expect(proc.pids().sorted() == [812, 900])
        #expect(proc.stat(of: 812)?.command == "apt-get")
        #expect(proc.status(of: 812)?.realUID == 0)
        #expect(proc.commandLine(of: 812) == ["apt-get", "install", "lab a"])
        #expect(proc.command(of: 812) == "apt-get")
        #expect(proc.cgroup(of: 812).map(ProcessOwner.init(cgroupFile:)) == .session(name: "session-3.scope"))
        #expect(proc.children(of: 812) == [900])
        #expect(proc.bootTime() == 1_764_000_000)
        #expect(proc.bootID() == "2f5c8a0e-0000-4000-8000-000000000001")
        #expect(proc.stat(of: 1) == nil)
        #expect(proc.commandLine(of: 1) == [])
        #expect(ProcFS(root: folder.file("nothing")).pids() == [])
        #expect(ProcFS(root: folder.file("nothing")).bootTime() == nil)
    }

    @Test("a live process named 'a) b (c' is read right, and reads as gone once it has vanished")
    func liveAndVanished() async throws {
        let folder = try ScanFolder()
        defer { folder.remove() }
        // comm is the executable's file name: a copy of sleep under a hostile one.
        let executable = folder.file("a) b (c")
        try ExecutableFile.copy("/bin/sleep", to: executable)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["60"]
        try child.run()
        let pid = child.processIdentifier
        let proc = ProcFS()
        #expect(await eventually { proc.command(of: pid) == "a) b (c" })
        let stat = try #require(proc.stat(of: pid))
        #expect(stat.pid == pid)
        #expect(stat.command == "a) b (c")
        #expect(stat.parent == getpid())
        #expect(proc.children(of: getpid()).contains(pid))
        #expect(proc.status(of: pid)?.realUID == getuid())
        #expect(proc.commandLine(of: pid) == [executable, "60"])
        #expect(proc.executable(of: pid) == executable)
        #expect(proc.ownExecutable() != nil)
        #expect(proc.ownStatus()?.realUID == getuid())
        #expect(proc.stat(of: getpid())?.startTicks ?? 0 <= stat.startTicks)

        // SIGKILL: Foundation's Process hands the spawning thread's blocked signals, SIGTERM
        // among them, on to the child, where a SIGTERM would wait unseen.
        kill(pid, SIGKILL)
        child.waitUntilExit()
        #expect(proc.stat(of: pid) == nil)
        #expect(proc.status(of: pid) == nil)
        #expect(proc.commandLine(of: pid) == [])
        #expect(proc.command(of: pid) == nil)
        #expect(proc.executable(of: pid) == nil)
        #expect(proc.cgroup(of: pid) == nil)
    }
}
