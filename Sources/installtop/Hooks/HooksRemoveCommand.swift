import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

/// `installtop hooks remove`: deletes the files `install` wrote, and nothing else.
struct HooksRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete the hook files `installtop hooks install` wrote.",
        discussion: "A file of that name that installtop did not write is left alone. Exit status: 0 none left, 1 a file could not be removed, 2 usage."
    )

    @OptionGroup var options: HookOptions

    func run() throws {
        var failed = false
        for path in try options.files().all {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            guard text.contains(HookFiles.marker) else {
                StandardOutput.stdout.line("left \(path): installtop did not write it")
                continue
            }
            do {
                try FileManager.default.removeItem(atPath: path)
                StandardOutput.stdout.line("removed \(path)")
            } catch {
                StandardOutput.stderr.line("installtop: cannot remove \(path): \(ErrorText.reason(error))")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
