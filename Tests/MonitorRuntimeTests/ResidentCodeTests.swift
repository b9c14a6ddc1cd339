import Foundation
import Glibc
import MonitorRuntime
import Testing

/// `ResidentCode.release` on this very process: its code pages leave the resident set, and
/// everything written at start (relocated data, the Swift runtime's metadata, globals) is intact.
@Suite("Resident code")
struct ResidentCodeTests {
    /// A global written at run time: it lives in a writable segment, which must be left alone.
    nonisolated(unsafe) static var written: [String: Int] = [:]

    @Test("release unmaps the never-written pages and breaks nothing: code runs, relocated data and globals are intact")
    func release() throws {
        Self.written = ["before": 1]
        let before = try #require(Self.fileBackedResidentKiB())
        let advised = ResidentCode.release()
        let after = try #require(Self.fileBackedResidentKiB())
        #expect(advised > 1 << 20, "only \(advised) bytes advised")
        // The test runner's own code alone is tens of megabytes mapped; what the reading of
        // smaps_rollup itself maps back is far less than what was released.
        #expect(after < before, "file-backed resident \(before) KiB before, \(after) KiB after")

        // Code, read-only data and relocated pointers work after the release: dynamic casts
        // and conformances (the runtime's metadata), Foundation's coders, formatting, globals.
        let values: [Any] = [1, "two", 3.0, ["four": 4]]
        #expect(values.compactMap { $0 as? any CustomStringConvertible }.count == 4)
        #expect(values[3] as? [String: Int] == ["four": 4])
        let data = try JSONEncoder().encode(["key": [1, 2, 3]])
        #expect(try JSONDecoder().decode([String: [Int]].self, from: data) == ["key": [1, 2, 3]])
        #expect(String(format: "%.2f", 3.14159) == "3.14")
        #expect(Self.written == ["before": 1])
        Self.written["after"] = 2
        #expect(Self.written.count == 2)
    }

    /// Resident KiB backed by files (`Rss` less `Anonymous` in /proc/self/smaps_rollup).
    private static func fileBackedResidentKiB() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        guard let rss = field("Rss"), let anonymous = field("Anonymous") else { return nil }
        return rss - anonymous
    }
}
