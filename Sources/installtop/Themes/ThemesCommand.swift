import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Monitor
import TextBasics

/// `installtop themes`: the themes `--theme` accepts, built-in ones first, with where each
/// comes from. Theme files that cannot be used are listed on stderr with file, line and key;
/// they do not change the exit status.
struct ThemesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the available themes."
    )

    func run() throws {
        let catalog = ThemeCatalog(userDirectory: ThemeCatalog.userDirectory())
        let idWidth = max(4, catalog.themes.map { $0.id.count }.max() ?? 0)
        let nameWidth = max(4, catalog.themes.map { $0.name.count }.max() ?? 0)
        func row(_ id: String, _ name: String, _ source: String) -> String {
            id.padded(to: idWidth) + "  "
                + name.padded(to: nameWidth) + "  " + source
        }
        print(row("NAME", "SHOWN AS", "SOURCE"))
        for theme in catalog.themes {
            print(row(theme.id, theme.name, theme.source.description))
        }
        for problem in catalog.problems {
            StandardOutput.stderr.line("installtop: skipped a theme: \(problem)")
        }
    }
}
