import Foundation
import Testing
import TerminalUI

/// Compares `buffer.lines` with `Snapshots/NAME.txt` beside the tests; records the file instead
/// when `RECORD_SNAPSHOTS=1` (or when it does not exist yet, which still fails the test).
func expectSnapshot(_ buffer: Buffer, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")
    let file = folder.appendingPathComponent(name + ".txt")
    let actual = buffer.lines.joined(separator: "\n") + "\n"
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        if !record {
            Issue.record("recorded a new snapshot \(name).txt; check it and run again", sourceLocation: sourceLocation)
        }
        return
    }
    #expect(actual == expected, "frame differs from Snapshots/\(name).txt:\n\(actual)", sourceLocation: sourceLocation)
}
