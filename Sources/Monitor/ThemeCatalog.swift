#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every theme the monitor can use: the built-in ones (embedded from `Themes/`, `default`
/// first) followed by the user's (`~/.config/installtop/themes/*.yaml`), plus the problems
/// met while loading them. A broken file is left out and reported; the others still work.
public struct ThemeCatalog: Sendable {
    /// Usable themes in `t` order; never empty when the built-ins are intact.
    public private(set) var themes: [Theme]
    /// Files that could not be used.
    public private(set) var problems: [ThemeError]

    /// Why `themes` is empty: the first file that could not be used, or, when none was met,
    /// that no theme could be loaded.
    public var whyNoTheme: ThemeError {
        problems.first ?? ThemeError(file: "Themes", message: "no theme could be loaded")
    }

    /// The built-in themes and the user's from `userDirectory` (none when `nil` or missing).
    public init(userDirectory: String?) {
        themes = []
        problems = []
        let builtIn = EmbeddedThemes.files.sorted { ($0.name == "default" ? 0 : 1, $0.name) < ($1.name == "default" ? 0 : 1, $1.name) }
        for file in builtIn {
            let source = ThemeSource.builtIn(file.name + ".yaml")
            append { () throws(ThemeError) in
                try ThemeLoader.parse(file.text, file: source.description, id: file.name, source: source)
            }
        }
        guard let userDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: userDirectory)
        else { return }
        for name in names.sorted() where name.hasSuffix(".yaml") {
            append { () throws(ThemeError) in try ThemeLoader.load(path: userDirectory + "/" + name) }
        }
    }

    /// `$XDG_CONFIG_HOME/installtop/themes`, or `$HOME/.config/installtop/themes`; `nil` when
    /// neither variable is set.
    public static func userDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/installtop/themes" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/installtop/themes" }
        return nil
    }

    /// The theme `--theme` names: a path (containing `/` or ending in `.yaml`) is loaded from
    /// that file and added to the catalog; otherwise an id or display name, case-insensitive,
    /// with user themes winning over built-in ones of the same name. Returns its index in
    /// `themes`.
    /// - Throws: `ThemeError` for a broken file or an unknown name (listing the known ones).
    public mutating func resolve(_ nameOrPath: String) throws(ThemeError) -> Int {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") {
            let theme = try ThemeLoader.load(path: nameOrPath)
            themes.append(theme)
            return themes.count - 1
        }
        let wanted = nameOrPath.lowercased()
        let matches = themes.indices.filter { themes[$0].id.lowercased() == wanted || themes[$0].name.lowercased() == wanted }
        let userMatch = matches.first { if case .file = themes[$0].source { true } else { false } }
        guard let index = userMatch ?? matches.first else {
            let known = themes.map(\.id).joined(separator: ", ")
            throw ThemeError(file: "", key: "--theme", message: "no theme named `\(nameOrPath)`; available: \(known)")
        }
        return index
    }

    private mutating func append(_ load: () throws(ThemeError) -> Theme) {
        do {
            themes.append(try load())
        } catch {
            problems.append(error)
        }
    }
}
