import Foundation
import InstallEngine
import Synchronization

/// The apt transaction of an apt job run without a separate plan (`installtop apt … --yes`):
/// apt resolves once. It starts before its job exists, with `APTHookPlan`'s hook, and holds
/// what apt says until the job's driver takes it over (`APTDriver`, through `attach`).
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
public final class APTHookTransaction: Sendable {
    /// How the transaction began.
    public enum Beginning: Sendable {
        /// apt's hook gave the plan, in apt's order; dpkg runs now.
        case plan([PackageChange])
        /// apt ended before its hook, having changed nothing: its exit and what it printed.
        case ended(UpdateRunOutcome, stdout: String, stderr: String)
    }

    /// A line apt printed (`stream` set) or wrote on its Status-Fd (`stream` nil).
    typealias Line = ToolLine

    private struct State {
        var hook = APTHookPlan()
        /// apt's process and its lines for the driver, until it takes them.
        var handOff = ToolHandOff()
        /// What apt printed before the plan, for `.ended`.
        var stdout: [String] = []
        var stderr: [String] = []
        var downloadText: String?
        var beginning: Beginning?
    }

    /// The root and configuration apt acts in.
    public let environment: APTEnvironment
    /// The packages in `reboot-required.pkgs` before apt started.
    let rebootListBefore: Set<String>
    private let state = Mutex(State())
    private let begun = DispatchSemaphore(value: 0)
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
        let process = backend.startChild(spec, sinks: ChildSinks(
            stdout: .text { transaction.take(Line(stream: .stdout, text: $0)) },
            stderr: .text { transaction.take(Line(stream: .stderr, text: $0)) },
            channel: .text { transaction.take(Line(stream: nil, text: $0)) },
            afterReads: { transaction.state.withLock { $0.handOff.afterReads }?() }, atMostEvery: APTTranslator.handOnInterval,
            // Until the hook is answered apt waits for installtop: its lines are read as they come.
            promptlyAtFirst: true))
        transaction.state.withLock { $0.handOff.process = process }
        Task.detached(executorPreference: EngineTaskExecutor.shared) {
            let outcome = await process.outcome
            // No dpkg of apt's runs any more (a forced stop killed them before apt).
            transaction.gate?.remove()
            let endedFirst = transaction.begin { state in
                .ended(outcome, stdout: state.stdout.joined(separator: "\n"), stderr: state.stderr.joined(separator: "\n"))
            }
            // apt changed nothing: nothing it kept ahead stands for a version replaced.
            if endedFirst { keeper?.discardAhead() }
        }
        return transaction
    }

    /// Blocks until the hook has given the plan or apt has ended before it.
    public func waitForBeginning() -> Beginning {
        begun.wait()
        begun.signal()
        guard let beginning = state.withLock({ $0.beginning }) else { preconditionFailure("signalled before it began") }
        return beginning
    }

    /// Asks apt to stop before it changes anything: SIGINT to apt-get alone (during its
    /// downloads), and the hook's answer will be `stop` (apt ignores SIGINT during its hooks).
    /// Once the hook was answered `go`, apt stops at its next safe point instead (the gate's,
    /// asked first).
    public func stop() {
        gate?.requestStop()
        state.withLock { state in
            state.handOff.stopRequested = true
            return state.handOff.process
        }?.interrupt()
    }

    /// Whether apt's hook gave the plan: dpkg runs, or has run, since.
    public var planCame: Bool {
        state.withLock { state in
            if case .plan = state.beginning { true } else { false }
        }
    }

    /// Whether `stop` was called.
    public var stopRequested: Bool { state.withLock { $0.handOff.stopRequested } }

    /// Whether no driver has taken apt's process over yet (`takeOver`).
    var canBeTakenOver: Bool { state.withLock { $0.handOff.canBeTakenOver } }

    /// apt's process, for the one driver that takes the transaction over; `nil` after the first
    /// call (a retry runs a transaction of its own).
    func takeOver() -> ChildProcess? {
        state.withLock { $0.handOff.takeOver() }
    }

    /// Hands every line kept so far to `receiver`, in order, then each later line as it comes;
    /// `afterReads` (see `ChildSinks`) after those kept, then at the end of each of the poller's
    /// wake-ups, with no lock held.
    func attach(_ receiver: @escaping @Sendable (Line) -> Void, afterReads: @escaping @Sendable () -> Void) {
        state.withLock { $0.handOff.attach(receiver, afterReads: afterReads) }
        afterReads()
    }

    // MARK: - apt's lines (on the poller's thread)

    private func take(_ line: Line) {
        let said: String? = state.withLock { state in
            // The hook's lines are the transaction's own, also when a driver is attached
            // before apt starts (the apt driver's own transaction with a keeper).
            if line.stream == nil, !state.hook.isComplete, state.hook.consume(line.text) {
                if state.hook.isComplete { hookEnded(&state) }
                return nil
            }
            if state.handOff.handOn(line) { return nil }
            guard state.beginning == nil else {
                state.handOff.keep(line)
                return nil
            }
            switch line.stream {
            case .stdout?:
                state.stdout.append(line.text)
                state.handOff.keep(line)
            case .stderr?:
                state.stderr.append(line.text)
                state.handOff.keep(line)
            case nil:
                // apt's downloads, before its hook: the job's driver has no use for them.
                guard let text = Self.downloadText(line.text), text != state.downloadText else { return nil }
                state.downloadText = text
                return text
            }
            return nil
        }
        if let said { onDownload(said) }
    }

    private func hookEnded(_ state: inout State) {
        let changes = state.hook.changes(administrativeDirectory: environment.administrativeDirectory)
        // Stopped, or a hook that names no package (apt's end says how it went): no plan, and
        // nothing to keep.
        guard !state.handOff.stopRequested, !changes.isEmpty else {
            keeper?.discardAhead()
            answer(&state)
            return
        }
        if state.beginning == nil {
            state.beginning = .plan(changes)
            begun.signal()
        }
        keeper?.planned(changes, environment: environment)
        guard let keeper, keeper.isArmed || changes.contains(where: APTVersionKeeper.replacesInstalledVersion) else {
            keeper?.discardAhead()
            answer(&state)
            return
        }
        // Never on the poller's thread: a rebuild takes seconds, and apt's lines (and every
        // other child's) are read there. dpkg waits for the answer meanwhile.
        Thread.detachNewThread { [self] in
            Thread.current.name = "installtop-keep"
            let kept = keeper.keep(changes, environment: environment)
            for note in kept.compactMap({ kept in kept.failureNote.map { (kept.package, $0) } }) {
                take(Line(stream: nil, text: APTKeptVersion.noteLinePrefix + note.0 + ":" + note.1))
            }
            // An armed job's revert needs every version it replaces: without one, dpkg never
            // starts, and the host stays as it was.
            let unkept = keeper.isArmed ? kept.filter { $0.failureNote != nil }.map(\.package) : []
            let afterReads = self.state.withLock { state in
                if !unkept.isEmpty { state.handOff.stopRequested = true }
                answer(&state)
                return state.handOff.afterReads
            }
            afterReads?()
        }
    }

    /// The hook's answer: `go` lets dpkg start; `stop` (asked for meanwhile) ends apt first.
    private func answer(_ state: inout State) {
        state.handOff.process?.sendControl(state.handOff.stopRequested ? APTHookPlan.stopAnswer : APTHookPlan.goAnswer)
        // dpkg's lines wait for nobody: read at the driver's pace from here on.
        state.handOff.process?.readPromptly(false)
    }

    /// Sets how the transaction began, unless it already had; whether it did here.
    @discardableResult
    private func begin(_ make: (State) -> Beginning) -> Bool {
        state.withLock { state in
            guard state.beginning == nil else { return false }
            state.beginning = make(state)
            begun.signal()
            return true
        }
    }

    /// `downloading N of M · P %` for apt's `dlstatus:N:P:Retrieving file N of M`; `nil` for
    /// any other line.
    static func downloadText(_ line: String) -> String? {
        guard line.hasPrefix("dlstatus:"), let (_, subject, percent, text) = APTStatusLine.fields(of: line) else { return nil }
        let files = text.split(separator: " ").last.map(String.init) ?? "?"
        return "downloading \(subject) of \(files) · \(Int(percent.rounded(.down))) %"
    }
}
