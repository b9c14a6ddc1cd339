#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// How apt-get, run with `APTHookPlan`'s hook before its job exists, is read until its plan
/// (`APTHookTransaction`, a `PreStartedTool` of this kind): its downloads said through
/// `onDownload`, its hook's lines read into the plan, what it printed kept for an end before
/// the hook; once the hook has spoken, the versions the plan replaces kept (with a `keeper`)
/// before dpkg may start, and every later line kept, in order, for the driver.
public struct APTHookToolKind: PreStartedToolLines {
    /// How the transaction began.
    public enum Beginning: Sendable {
        /// apt's hook gave the plan, in apt's order; dpkg runs now.
        case plan([PackageChange])
        /// apt ended before its hook, having changed nothing: its exit and what it printed.
        case ended(UpdateRunOutcome, stdout: String, stderr: String)
    }

    typealias Translator = APTTranslator

    /// What apt says before the driver takes it over, as the transaction reads it.
    public struct Reading: Sendable {
        var hook = APTHookPlan()
        /// What apt printed before the plan, for `.ended`.
        var stdout: [String] = []
        var stderr: [String] = []
        var downloadText: String?
    }

    /// The root and configuration apt acts in.
    let environment: APTEnvironment
    /// The packages in `reboot-required.pkgs` before apt started.
    let rebootListBefore: Set<String>
    let onDownload: @Sendable (String) -> Void
    let keeper: (any APTVersionKeeping)?
    /// The safe point between dpkg's archives; `nil` when it could not be made (apt's own then).
    let gate: DpkgArchiveGate?
    /// The transaction's mark (`INSTALLTOP_APT_RUN`'s text), which apt-get, dpkg and every
    /// maintainer script inherit: what is left of it after apt-get ended is found by it.
    let marker: String?

    init(environment: APTEnvironment, keeper: (any APTVersionKeeping)?, marker: String?, onDownload: @escaping @Sendable (String) -> Void) {
        self.environment = environment
        self.marker = marker
        self.keeper = keeper
        gate = DpkgArchiveGate.make(for: environment)
        self.onDownload = onDownload
        rebootListBefore = APTTranslator.rebootList(at: environment.rebootPackagesPath)
    }

    /// Before the SIGINT of a stop: once the hook was answered `go`, apt stops at its next safe
    /// point, the gate's.
    public func stopping() {
        gate?.requestStop()
    }

    /// apt ended (no dpkg of its runs any more: a forced stop killed them before apt).
    func ended(_ outcome: UpdateRunOutcome, of tool: PreStartedTool<Self>) {
        gate?.remove()
        let endedFirst = tool.begin { state in
            .ended(outcome, stdout: state.reading.stdout.joined(separator: "\n"), stderr: state.reading.stderr.joined(separator: "\n"))
        }
        // apt changed nothing: nothing it kept ahead stands for a version replaced.
        if endedFirst { keeper?.discardAhead() }
    }

    // MARK: - apt's lines (on the poller's thread)

    func take(_ line: ToolLine, of tool: PreStartedTool<Self>) {
        let said: String? = tool.withState { state in
            // The hook's lines are the transaction's own, also when a driver is attached
            // before apt starts (the apt driver's own transaction with a keeper).
            if line.stream == nil, !state.reading.hook.isComplete, state.reading.hook.consume(line.text) {
                if state.reading.hook.isComplete { hookEnded(&state, of: tool) }
                return nil
            }
            if state.handOff.handOn(line) { return nil }
            guard state.beginning == nil else {
                state.handOff.keep(line)
                return nil
            }
            switch line.stream {
            case .stdout?:
                state.reading.stdout.append(line.text)
                state.handOff.keep(line)
            case .stderr?:
                state.reading.stderr.append(line.text)
                state.handOff.keep(line)
            case nil:
                // apt's downloads, before its hook: the job's driver has no use for them.
                guard let text = Self.downloadText(line.text), text != state.reading.downloadText else { return nil }
                state.reading.downloadText = text
                return text
            }
            return nil
        }
        if let said { onDownload(said) }
    }

    private func hookEnded(_ state: inout PreStartedTool<Self>.State, of tool: PreStartedTool<Self>) {
        let changes = state.reading.hook.changes(administrativeDirectory: environment.administrativeDirectory)
        // Stopped, or a hook that names no package (apt's end says how it went): no plan, and
        // nothing to keep.
        guard !state.handOff.stopRequested, !changes.isEmpty else {
            keeper?.discardAhead()
            Self.answer(&state)
            return
        }
        tool.begin(in: &state) { _ in .plan(changes) }
        keeper?.planned(changes, environment: environment)
        guard let keeper, keeper.isArmed || changes.contains(where: APTVersionKeeper.replacesInstalledVersion) else {
            keeper?.discardAhead()
            Self.answer(&state)
            return
        }
        // Never on the poller's thread: a rebuild takes seconds, and apt's lines (and every
        // other child's) are read there. dpkg waits for the answer meanwhile.
        EngineThread.detach(named: "installtop-keep") { [self] in
            let kept = keeper.keep(changes, environment: environment)
            for note in kept.compactMap({ kept in kept.failureNote.map { (kept.package, $0) } }) {
                take(ToolLine(stream: nil, text: APTKeptVersion.noteLinePrefix + note.0 + ":" + note.1), of: tool)
            }
            // An armed job's revert needs every version it replaces: without one, dpkg never
            // starts, and the host stays as it was.
            let unkept = keeper.isArmed ? kept.filter { $0.failureNote != nil }.map(\.package) : []
            // Said before apt is answered, so the run knows of the stop before apt's exit.
            if !unkept.isEmpty { take(ToolLine(stream: nil, text: APTKeptVersion.armedStopLine), of: tool) }
            let afterReads = tool.withState { state in
                if !unkept.isEmpty { state.handOff.stopRequested = true }
                Self.answer(&state)
                return state.handOff.afterReads
            }
            afterReads?()
        }
    }

    /// The hook's answer: `go` lets dpkg start; `stop` (asked for meanwhile) ends apt first.
    private static func answer(_ state: inout PreStartedTool<Self>.State) {
        state.handOff.process?.sendControl(state.handOff.stopRequested ? APTHookPlan.stopAnswer : APTHookPlan.goAnswer)
        // dpkg's lines wait for nobody: read at the driver's pace from here on.
        state.handOff.process?.readPromptly(false)
    }

    /// `downloading N of M · P %` for apt's `dlstatus:N:P:Retrieving file N of M`; `nil` for
    /// any other line.
    static func downloadText(_ line: String) -> String? {
        guard line.hasPrefix("dlstatus:"), let (_, subject, percent, text) = APTStatusLine.fields(of: line) else { return nil }
        let files = text.split(separator: " ").last.map(String.init) ?? "?"
        return "downloading \(subject) of \(files) · \(Int(percent.rounded(.down))) %"
    }
}
