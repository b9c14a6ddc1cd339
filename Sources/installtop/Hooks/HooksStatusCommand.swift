import ArgumentParser
import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `installtop hooks status`: which hook files are there, the relay and socket they name, and
/// whether an engine listens on it.
struct HooksStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say which hooks are installed, the relay they run and whether an engine listens on their socket.",
        discussion: "Exit status: 0 installed, 1 not installed (or only in part), 2 usage."
    )

    @OptionGroup var options: HookOptions

    func run() throws {
        let files = try options.files()
        var installed = true
        for path in files.all {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains(HookFiles.marker) {
                StandardOutput.stdout.line("installed: \(path)")
            } else {
                StandardOutput.stdout.line("missing:   \(path)")
                installed = false
            }
        }
        if let text = try? String(contentsOfFile: files.aptFile, encoding: .utf8), let named = HookFiles.relayAndSocket(inAptText: text) {
            let relayState = FileManager.default.isExecutableFile(atPath: named.relay) ? "present" : "missing: the hooks discard their input"
            StandardOutput.stdout.line("relay:     \(named.relay) (\(relayState))")
            StandardOutput.stdout.line("socket:    \(named.socket) (\(Self.listening(named.socket) ? "an engine listens" : "no engine listens: events are dropped"))")
            StandardOutput.stdout.line("undo:      " + (HookFiles.keepingHistory(inAptText: text).map { "every apt run keeps what it replaces, recorded in \($0)" }
                ?? "nothing kept for observed apt runs (hooks install --keep-for-undo keeps them)"))
        }
        if !installed { throw ExitCode(1) }
    }

    /// Whether something accepts a connection on `path` now.
    static func listening(_ path: String) -> Bool {
        guard let client = try? EngineClient(path: path) else { return false }
        client.close()
        return true
    }
}
