#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The two fields of `/proc/PID/stat` that tell a process apart from a later one with the
/// same pid: its state (field 3) and its start time (field 22).
struct ProcStat: Sendable, Hashable {
    /// One of `R S D Z T t W X x I P K`.
    var state: Character
    /// Clock ticks after boot.
    var startTime: UInt64

    /// A zombie or dead process has exited; only its entry is left.
    var isDead: Bool { state == "Z" || state == "X" || state == "x" }

    /// The stat of `pid`, or `nil` when there is no such process (or no `/proc`).
    static func read(pid: Int32) -> ProcStat? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// Parses a stat line. Field 2 (`comm`) is in parentheses and may itself contain spaces
    /// and parentheses, so the fields are counted from the last `)`.
    static func parse(_ line: String) -> ProcStat? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        // Fields 3, 4, … : field N is at index N - 3.
        let fields = line[line.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 19, let state = fields[0].first, let startTime = UInt64(fields[19]) else {
            return nil
        }
        return ProcStat(state: state, startTime: startTime)
    }
}
