import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `installtop generate-manual DIR`: writes a man page for every command (`installtop.run.1` …)
/// into DIR, made from the help (`ManualPage`); hidden, it is for installing (README's Build from source
/// block). `installtop.1` itself is written by hand (Documentation/installtop.1).
struct GenerateManualCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-manual",
        abstract: "Write a man page for every command into a folder.",
        shouldDisplay: false
    )

    @Argument(help: "The folder (made when missing).")
    var folder: String

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for page in ManualPage.all() {
            try page.text.write(toFile: folder + "/" + page.fileName, atomically: true, encoding: .utf8)
        }
    }
}
