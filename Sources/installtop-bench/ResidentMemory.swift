import Foundation
import Glibc

/// A process's resident memory read from /proc: the total (`VmRSS`, what top and htop show
/// as RES) and the same pages summed by what they belong to, from /proc/PID/smaps.
struct ResidentMemory {
    /// `VmRSS` in KiB.
    var totalKiB: Int
    /// Resident KiB by part, largest first: the executable, the Swift runtime, Foundation,
    /// ICU, the C libraries, the malloc heap, other anonymous memory (threads' stacks, malloc's
    /// per-thread arenas, the Swift runtime's own allocations), the rest.
    var parts: [(name: String, kibibytes: Int)]
    /// Resident and proportional (`Pss`: shared pages divided among their users) KiB by
    /// mapping, summed by file name and permissions (`installtop r-xp`, `[heap] rw-p`,
    /// `[anonymous] rw-p`), largest `Rss` first.
    var mappings: [(name: String, rss: Int, pss: Int)]

    /// Reads process `pid`'s memory; `nil` when it is gone or /proc cannot be read.
    init?(pid: pid_t) {
        guard let status = Self.contents(of: "/proc/\(pid)/status"), let smaps = Self.contents(of: "/proc/\(pid)/smaps"),
            let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
            let rss = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        totalKiB = rss
        var sums: [String: Int] = [:]
        var byMapping: [String: (rss: Int, pss: Int)] = [:]
        var part = "other"
        var mapping = ""
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }), fields.count >= 5 {
                let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : nil
                part = path.map { Self.part(of: $0, executable: executable) } ?? "other anonymous"
                mapping = (path.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "[anonymous]") + " " + fields[1]
            } else if first == "Rss:", fields.count >= 2, let kibibytes = Int(fields[1]) {
                sums[part, default: 0] += kibibytes
                byMapping[mapping, default: (0, 0)].rss += kibibytes
            } else if first == "Pss:", fields.count >= 2, let kibibytes = Int(fields[1]) {
                byMapping[mapping, default: (0, 0)].pss += kibibytes
            }
        }
        parts = sums.filter { $0.value > 0 }.sorted { $0.value > $1.value }.map { (name: $0.key, kibibytes: $0.value) }
        mappings = byMapping.filter { $0.value.rss > 0 }.sorted { $0.value.rss > $1.value.rss }
            .map { (name: $0.key, rss: $0.value.rss, pss: $0.value.pss) }
    }

    /// One line: the total in MiB, then each part.
    var summary: String {
        "\(Self.mebibytes(totalKiB)) MiB (" + parts.map { "\($0.name) \(Self.mebibytes($0.kibibytes))" }.joined(separator: ", ") + ")"
    }

    /// The `count` largest mappings, each as `name Rss (Pss …)` in MiB.
    func largestMappings(_ count: Int) -> String {
        mappings.prefix(count).map { "\($0.name) \(Self.mebibytes($0.rss)) (Pss \(Self.mebibytes($0.pss)))" }.joined(separator: ", ")
    }

    static func mebibytes(_ kibibytes: Int) -> String { String(format: "%.1f", Double(kibibytes) / 1024) }

    /// The whole of a /proc file, read to its end (they report a size of 0, and a reader that
    /// trusts the size stops after the first read).
    private static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[..<count]
        }
    }

    private static func part(of path: String, executable: String) -> String {
        if path == executable { return "executable" }
        if path == "[heap]" { return "malloc heap" }
        if path.hasPrefix("[") { return "other" }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if file.hasPrefix("lib_FoundationICU") { return "ICU" }
        if file.hasPrefix("libFoundation") { return "Foundation" }
        if file.hasPrefix("libswift") || file.hasPrefix("libdispatch") || file.hasPrefix("libBlocksRuntime") { return "Swift runtime" }
        if file.hasPrefix("lib") || file.hasPrefix("ld-linux") { return "C libraries" }
        return "other files"
    }
}
