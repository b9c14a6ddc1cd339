import Glibc

/// What `/proc/PID/stat` says about a process, plus the small readers of its other files.
struct ProcStat {
    let pid: Int32
    let program: String
    let parent: Int32
    let terminal: String
    let startTicks: UInt64

    init?(pid: Int32) {
        guard let text = Self.read("/proc/\(pid)/stat"),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        // comm may hold spaces and parentheses: it ends at the last ')'.
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After comm: state(0) ppid(1) pgrp(2) session(3) tty_nr(4) … starttime(19).
        guard fields.count > 19, let parent = Int32(fields[1]), let tty = Int32(fields[4]), let start = UInt64(fields[19]) else { return nil }
        self.pid = pid
        program = String(text[text.index(after: open)..<close])
        self.parent = parent
        terminal = Self.terminalName(tty)
        startTicks = start
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

    /// The argument vector from `/proc/PID/cmdline`; empty for a kernel thread or a process gone.
    static func commandLine(of pid: Int32) -> [String] {
        guard let text = read("/proc/\(pid)/cmdline") else { return [] }
        return text.split(separator: "\0").map(String.init)
    }

    /// The real uid from `/proc/PID/status`; 0 when unreadable.
    static func realUID(of pid: Int32) -> UInt32 {
        guard let text = read("/proc/\(pid)/status") else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("Uid:") {
            return line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) } ?? 0
        }
        return 0
    }

    /// A small file read whole (`/proc` files report size 0, so read until the end).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
