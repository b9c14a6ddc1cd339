import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallHistory

/// `installtop hooks keep begin|end --history-db PATH`: what the hooks of `hooks install
/// --keep-for-undo` run (rule 37), not meant to be run by hand. `begin` reads apt's version 3
/// hook input to its end first, then keeps; both always exit 0: a keeping that fails must never
/// fail apt's run, so it says why on stderr and lets apt go on.
struct HooksKeepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keep",
        abstract: "Keep the versions an observed apt run replaces, for undo (run by the hooks of `hooks install --keep-for-undo`).",
        shouldDisplay: false
    )

    enum Moment: String, ExpressibleByArgument {
        case begin, end
    }

    @Argument(help: "begin (apt's Pre-Install-Pkgs hook) or end (its Post-Invoke hook).")
    var moment: Moment

    @Option(help: ArgumentHelp("The history database the runs and kept versions go to.", valueName: "path"))
    var historyDb: String

    func run() {
        // apt waits for the hook to read all it writes: read first, whatever happens next.
        let input = moment == .begin ? String(decoding: StandardInput.readToEnd(), as: UTF8.self) : ""
        let store: HistoryStore
        do {
            store = try HistoryStore(path: historyDb)
        } catch {
            StandardOutput.stderr.line("installtop: nothing kept for undo: the history at \(historyDb) cannot be opened: \(error)")
            return
        }
        guard let keeping = EngineHost.observedRunKeeping(store: store) else {
            StandardOutput.stderr.line("installtop: nothing kept for undo: no kind of this installtop keeps its observed runs")
            return
        }
        let said = moment == .begin ? keeping.begin(hookInput: input) : keeping.end()
        for line in said { StandardOutput.stderr.line(line) }
    }
}
