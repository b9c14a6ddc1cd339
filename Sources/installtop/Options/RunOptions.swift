import ArgumentParser
import Monitor

/// The options of every command that runs jobs in this process: `run`, `demo`, `apt` and
/// `ansible`.
struct RunOptions: ParsableArguments {
    @Flag(help: "Print one line per event instead of the monitor (the default when stdout is not a terminal).")
    var plain = false

    @Flag(help: "Print JSON Lines events on stdout.")
    var json = false

    @Flag(help: "With --json, also emit every output line of every update as a `log` event.")
    var jsonLogs = false

    @Option(help: ArgumentHelp("The monitor's theme: a name from `installtop themes` or a path.", valueName: "name|path"), completion: CompletionSources.theme)
    var theme: String?

    @OptionGroup var history: HistoryOptions

    @Flag(help: "Close the monitor when every job is done.")
    var exitWhenDone = false

    func validate() throws {
        if plain && json { throw ValidationError("--plain and --json exclude each other") }
        if jsonLogs && !json { throw ValidationError("--json-logs goes with --json") }
        // Checked whatever the output mode: a mistyped theme is a mistake even where no theme
        // is drawn, and nothing should run before it is known.
        if let theme {
            var catalog = ThemeCatalog(userDirectory: ThemeCatalog.userDirectory())
            do {
                _ = try catalog.resolve(theme)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }
}
