import Glibc
import InstallEngine

/// The process that holds dpkg's lock, read from `/proc`: who it is (the initiator of an
/// observed job), since when, and the dpkg it runs now.
public struct LockHolder: Sendable, Hashable {
    public var initiator: ObservedInitiator
    /// When it started, in seconds since 1970; `nil` when `/proc` could not say.
    public var since: Int?

    /// The holder `pid`; `nil` when it is gone or `/proc` is unreadable.
    public init?(pid: Int32) {
        guard let stat = Self.read("/proc/\(pid)/stat"), let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        // After comm: state(0) ppid(1) pgrp(2) session(3) tty_nr(4) … starttime(19).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let tty = Int32(fields[4]), let ticks = UInt64(fields[19]) else { return nil }
        let uid = Self.read("/proc/\(pid)/status")?.split(separator: "\n").first { $0.hasPrefix("Uid:") }?
            .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) } ?? 0
        let user = getpwuid(uid).flatMap { $0.pointee.pw_name }.map { String(cString: $0) } ?? String(uid)
        initiator = ObservedInitiator(
            pid: pid, startTicks: ticks, program: String(stat[stat.index(after: open)..<close]),
            commandLine: Self.commandLine(of: pid), uid: uid, user: user, terminal: Self.terminalName(tty))
        since = Self.bootTime().map { $0 + Int(ticks) / max(1, sysconf(Int32(_SC_CLK_TCK))) }
    }

    /// `pid 812 (apt-get install nginx, root, since 14:02:11)`.
    public var description: String {
        let command = initiator.commandLine.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: " ")
        var parts = [command.isEmpty ? initiator.program : command, initiator.user]
        if let since { parts.append("since \(Self.localTime(since, format: "%H:%M:%S"))") }
        return "pid \(initiator.pid) (\(parts.joined(separator: ", ")))"
    }

    /// Its start as dpkg's log writes times (`2026-11-23 14:02:11`): the log's lines of its
    /// transaction are those at or after it. A second early: the boot time it is counted from
    /// is cut to the second.
    var logTime: String? { since.map { Self.localTime($0 - 1, format: "%Y-%m-%d %H:%M:%S") } }

    /// The dpkg processes it runs now (itself first when it is dpkg), with their arguments.
    func dpkgProcesses() -> [(pid: Int32, arguments: [String])] {
        var pids = ProcessTree.descendants(of: initiator.pid).filter { $0.name == "dpkg" }.map(\.pid)
        if initiator.program == "dpkg" { pids.insert(initiator.pid, at: 0) }
        return pids.map { ($0, Self.commandLine(of: $0)) }.filter { !$0.arguments.isEmpty }
    }

    static func commandLine(of pid: Int32) -> [String] {
        (read("/proc/\(pid)/cmdline") ?? "").split(separator: "\0").map(String.init)
    }

    /// `tty_nr` as a name: majors 136–143 are `pts/N`, 4 is `ttyN`; others by number.
    static func terminalName(_ device: Int32) -> String {
        guard device != 0 else { return "" }
        let major = (device >> 8) & 0xfff
        let minor = (device & 0xff) | ((device >> 12) & 0xfff00)
        if (136...143).contains(major) { return "pts/\((major - 136) * 256 + minor)" }
        if major == 4 { return "tty\(minor)" }
        return "\(major):\(minor)"
    }

    private static func bootTime() -> Int? {
        read("/proc/stat")?.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Int($0.dropFirst("btime ".count)) }
    }

    private static func localTime(_ seconds: Int, format: String) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A small file read whole (`/proc` files report size 0, so read until the end).
    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
