import Foundation
import Testing
import TestProcessSupport

/// A temporary folder for one end-to-end test: manifests, scripts, marker files and `HOME`.
struct EndToEndFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name`, executable when `executable`.
    func write(_ name: String, _ text: String, executable: Bool = false) throws {
        if executable {
            try ExecutableFile.write(text, to: path(name))
        } else {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        }
    }

    func read(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }

    /// Shell words that write the exit status of the command before them to `name`, whole: to
    /// `name.tmp` first, then renamed. A test waits for `name` to exist and then reads it, and
    /// `echo $? > name` creates the file before the number is in it (the watch test read ""
    /// there once, in a full run beside three CPU hogs).
    func exitStatus(to name: String) -> String {
        "echo $? > '\(path(name + ".tmp"))'; mv '\(path(name + ".tmp"))' '\(path(name))'"
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The built `installtop` (`.build/debug/installtop` beside this package, or the
    /// `INSTALLTOP_BINARY` environment variable); `swift test` builds it with the tests.
    static func binary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["INSTALLTOP_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let path = root.appendingPathComponent(".build/\(configuration)/installtop").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw EndToEndError("installtop is not built: run `swift build` first")
    }

    /// Polls every 20 ms until `condition` holds or the timeout passes (generous: a loaded CI
    /// machine can hold a test up for many seconds, and a passing test never waits it out).
    static func eventually(timeout: Duration = .seconds(180), _ condition: () -> Bool) async -> Bool {
        // Every 20 ms: a look here is often a `tmux capture-pane`, a process of its own.
        await TestProcessSupport.eventually(timeout: timeout, every: .milliseconds(20), condition)
    }
}

struct EndToEndError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
