#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization
import Dispatch

/// The apt transaction of an apt job run without a separate plan (`installtop apt … --yes`):
/// apt resolves once. It starts before its job exists, with `APTHookPlan`'s hook, and holds
/// what apt says until the job's driver takes it over (`APTDriver`, through
/// `LineDriverRunner.takingOver`): a `PreStartedTool` of this kind.
///
/// Until the hook has spoken nothing has changed (apt has resolved and fetched only): its
/// downloads are said through `onDownload`, `stop` then stops apt safely, and when apt
/// ends before the hook (nothing to do, a refusal, a failed download) `waitForBeginning` says so
/// with apt's exit and words. Once the hook has spoken, dpkg runs at once, or, with a `keeper`,
/// once the versions the plan replaces are kept for undo (rule 33): the hook waits for that on
/// a thread of its own, and a package that could not be kept is said on its update
/// (`APTKeptVersion.noteLinePrefix` lines, before any of dpkg's). Every later line is kept, in
/// order, for the driver.
///
/// The apt driver runs its own transactions this way too when it keeps versions (its plan
/// then came from a simulation, and its driver is attached before apt starts).
public final class APTHookTransaction: Sendable, PreStartedToolKind {
    /// How the transaction began.
    public enum Beginning: Sendable {
        /// apt's hook gave the plan, in apt's order; dpkg runs now.
        case plan([PackageChange])
        /// apt ended before its hook, having changed nothing: its exit and what it printed.
        case ended(UpdateRunOutcome, stdout: String, stderr: String)
    }

    typealias Translator = APTTranslator

    /// What apt says before the driver takes it over, as the transaction reads it.
    struct Reading: Sendable {
        var hook = APTHookPlan()
        /// What apt printed before the plan, for `.ended`.
        var stdout: [String] = []
        var stderr: [String] = []
        var downloadText: String?
    }

    /// The root and configuration apt acts in.
    public let environment: APTEnvironment
    /// The packages in `reboot-required.pkgs` before apt started.
    let rebootListBefore: Set<String>
    /// apt-get's process, its lines for the driver until it takes them, and its beginning.
    let tool = PreStartedTool<APTHookTransaction>(reading: Reading())
    private let onDownload: @Sendable (String) -> Void
    private let keeper: (any APTVersionKeeping)?
    /// The safe point between dpkg's archives; `nil` when it could not be made (apt's own then).
    let gate: DpkgArchiveGate?
    /// The transaction's mark (`INSTALLTOP_APT_RUN`'s text), which apt-get, dpkg and every
    /// maintainer script inherit: what is left of it after apt-get ended is found by it.
    let marker: String?

    private init(environment: APTEnvironment, keeper: (any APTVersionKeeping)?, marker: String?, onDownload: @escaping @Sendable (String) -> Void) {
        self.environment = environment
        self.marker = marker
        self.keeper = keeper
        gate = DpkgArchiveGate.make(for: environment)
        self.onDownload = onDownload
        rebootListBefore = APTTranslator.rebootList(at: environment.rebootPackagesPath)
    }

    /// Starts `job`'s transaction in `environment` and returns at once.
    /// - Parameters:
    ///   - keeper: keeps the versions the plan replaces before dpkg starts; `nil` keeps none.
    ///   - planned: the job's simulated plan, when it has one: the `keeper` starts keeping
    ///     what it replaces at once, beside apt's reading and fetching (`keepAhead`).
    ///   - jobName: the job's name for apt's hooks (`INSTALLTOP_JOB`), when the job exists.
    ///   - onDownload: called with `downloading N of M · P %` as apt fetches (each
    ///     change once, on the process poller's thread), until the plan comes.
    public static func start(_ job: PackageJob, environment: APTEnvironment, aptGet: String = "/usr/bin/apt-get",
                             backend: ProcessBackend = ProcessBackend(), keeper: (any APTVersionKeeping)? = nil,
                             planned: [PackageChange]? = nil, jobName: String? = nil,
                             onDownload: @escaping @Sendable (String) -> Void = { _ in }) -> APTHookTransaction {
        if let keeper, let planned, planned.contains(where: APTVersionKeeper.replacesInstalledVersion) {
            keeper.keepAhead(planned, environment: environment)
        }
        // After `keepAhead`, which reserves the history run the mark names.
        let variables = environment.transactionEnvironment(for: job.request, jobName: jobName, run: keeper?.reservedRun)
        let transaction = APTHookTransaction(environment: environment, keeper: keeper, marker: variables[InstalltopRunMarker.variable],
                                             onDownload: onDownload)
        let commandLine = APTCommandLine(request: job.request, aptGet: aptGet)
        let spec = ChildSpec(command: .argv(environment.command(commandLine.transactionWithPlanHook(through: transaction.gate))), environment: variables,
                             controlChannel: true)
        // Until the hook is answered apt waits for installtop: its lines are read as they come.
        transaction.tool.start(spec, for: transaction, backend: backend, promptlyAtFirst: true)
        return transaction
    }

    /// Blocks until the hook has given the plan or apt has ended before it.
    public func waitForBeginning() -> Beginning {
        tool.waitForBeginning()
    }

    /// Asks apt to stop before it changes anything: SIGINT to apt-get alone (during its
    /// downloads), and the hook's answer will be `stop` (apt ignores SIGINT during its hooks).
    /// Once the hook was answered `go`, apt stops at its next safe point instead (the gate's,
    /// asked first).
    public func stop() {
        gate?.requestStop()
        tool.stop()
    }

    /// Whether apt's hook gave the plan: dpkg runs, or has run, since.
    public var planCame: Bool {
        tool.withState { state in
            if case .plan = state.beginning { true } else { false }
        }
    }

    /// Whether `stop` was called.
    public var stopRequested: Bool { tool.stopRequested }

    /// apt ended (no dpkg of its runs any more: a forced stop killed them before apt).
    func ended(_ outcome: UpdateRunOutcome) {
        gate?.remove()
        let endedFirst = tool.begin { state in
            .ended(outcome, stdout: state.reading.stdout.joined(separator: "\n"), stderr: state.reading.stderr.joined(separator: "\n"))
        }
        // apt changed nothing: nothing it kept ahead stands for a version replaced.
        if endedFirst { keeper?.discardAhead() }
    }

    // MARK: - apt's lines (on the poller's thread)

    func take(_ line: ToolLine) {
        let said: String? = tool.withState { state in
            // The hook's lines are the transaction's own, also when a driver is attached
            // before apt starts (the apt driver's own transaction with a keeper).
            if line.stream == nil, !state.reading.hook.isComplete, state.reading.hook.consume(line.text) {
                if state.reading.hook.isComplete { hookEnded(&state) }
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

    private func hookEnded(_ state: inout PreStartedTool<APTHookTransaction>.State) {
        let changes = state.reading.hook.changes(administrativeDirectory: environment.administrativeDirectory)
        // Stopped, or a hook that names no package (apt's end says how it went): no plan, and
        // nothing to keep.
        guard !state.handOff.stopRequested, !changes.isEmpty else {
            keeper?.discardAhead()
            answer(&state)
            return
        }
        tool.begin(in: &state) { _ in .plan(changes) }
        keeper?.planned(changes, environment: environment)
        guard let keeper, keeper.isArmed || changes.contains(where: APTVersionKeeper.replacesInstalledVersion) else {
            keeper?.discardAhead()
            answer(&state)
            return
        }
        // Never on the poller's thread: a rebuild takes seconds, and apt's lines (and every
        // other child's) are read there. dpkg waits for the answer meanwhile.
        EngineThread.detach(named: "installtop-keep") { [self] in
            let kept = keeper.keep(changes, environment: environment)
            for note in kept.compactMap({ kept in kept.failureNote.map { (kept.package, $0) } }) {
                take(ToolLine(stream: nil, text: APTKeptVersion.noteLinePrefix + note.0 + ":" + note.1))
            }
            // An armed job's revert needs every version it replaces: without one, dpkg never
            // starts, and the host stays as it was.
            let unkept = keeper.isArmed ? kept.filter { $0.failureNote != nil }.map(\.package) : []
            let afterReads = tool.withState { state in
                if !unkept.isEmpty { state.handOff.stopRequested = true }
                answer(&state)
                return state.handOff.afterReads
            }
            afterReads?()
        }
    }

    /// The hook's answer: `go` lets dpkg start; `stop` (asked for meanwhile) ends apt first.
    private func answer(_ state: inout PreStartedTool<APTHookTransaction>.State) {
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
