#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization
import Dispatch

/// A tool started before the job that will own it exists (`installtop apt … --yes`, `installtop
/// dnf … --yes`: the tool says the plan, the job is made from it), until the one driver that
/// takes it over (`LineDriverRunner.takingOver`) reads its lines itself: its process, its lines
/// routed to its kind (`PreStartedToolLines.take`) and kept in order for that driver, how it
/// began, and its stop. apt's transaction with its plan hook and dnf's helper are this one type,
/// each with its kind (`APTHookTransaction`, `DNFHelperTransaction`): what differs, how the lines
/// before the plan are read and what an end before it says, is the kind's.
///
/// Its beginning is set once: by the kind when the plan comes, or when the tool ends before it.
/// `stop` interrupts the tool also after a driver took it over (apt's translator stops a hook
/// transaction through it); a forced stop is the driver's own, on the process it took.
public final class PreStartedTool<Kind: PreStartedToolKind>: Sendable {
    /// How the tool began: its plan, or its end before the plan.
    public typealias Beginning = Kind.Beginning

    /// What is kept under the tool's lock.
    struct State: Sendable {
        /// What the kind reads of the tool's lines until the plan.
        var reading: Kind.Reading
        /// The tool's process and its lines for the driver, until it takes them.
        var handOff = ToolHandOff()
        /// How the tool began; `nil` until the plan came or the tool ended.
        fileprivate(set) var beginning: Kind.Beginning?
    }

    /// How this tool's lines are read before the plan, and what its stop does first.
    let kind: Kind
    private let state: Mutex<State>
    private let begun = DispatchSemaphore(value: 0)

    /// A tool of `kind` with nothing started yet: `start` starts it.
    init(kind: Kind, reading: Kind.Reading) {
        self.kind = kind
        state = Mutex(State(reading: reading))
    }

    /// Blocks until the tool has begun: the kind said its plan, or the tool ended before it.
    public func waitForBeginning() -> Kind.Beginning {
        begun.wait()
        begun.signal()
        guard let beginning = state.withLock({ $0.beginning }) else { preconditionFailure("signalled before it began") }
        return beginning
    }

    /// Asks the tool to stop: the kind's own first (`PreStartedToolKind.stopping`), then notes
    /// it (`stopRequested`) and sends SIGINT to the tool alone, which it handles as it handles
    /// an operator's interrupt. Harmless after the tool ended.
    public func stop() {
        kind.stopping()
        state.withLock { state in
            state.handOff.stopRequested = true
            return state.handOff.process
        }?.interrupt()
    }

    /// Whether `stop` was called.
    public var stopRequested: Bool { state.withLock { $0.handOff.stopRequested } }

    /// Runs `body` under the tool's lock.
    func withState<Result>(_ body: (inout sending State) -> sending Result) -> sending Result {
        state.withLock(body)
    }

    /// Sets how the tool began (`make`, from what is kept), unless it had already; whether it
    /// did here. Under the tool's lock (`withState`).
    @discardableResult
    func begin(in state: inout State, _ make: (State) -> Kind.Beginning) -> Bool {
        guard state.beginning == nil else { return false }
        state.beginning = make(state)
        begun.signal()
        return true
    }

    /// `begin(in:_:)`, taking the tool's lock.
    @discardableResult
    func begin(_ make: (State) -> Kind.Beginning) -> Bool {
        state.withLock { state in begin(in: &state, make) }
    }

    /// Whether no driver has taken the tool over yet (`takeOver`).
    var canBeTakenOver: Bool { state.withLock { $0.handOff.canBeTakenOver } }

    /// The tool's process, for the one driver that takes it over; `nil` after the first call (a
    /// retry runs a tool of its own).
    func takeOver() -> ChildProcess? {
        state.withLock { $0.handOff.takeOver() }
    }

    /// Hands every line kept so far to `receiver`, in order, then each later line as it comes
    /// (as the kind hands them on); `afterReads` (see `ChildSinks`) after those kept, then at the
    /// end of each of the poller's wake-ups, with no lock held.
    func attach(_ receiver: @escaping @Sendable (ToolLine) -> Void, afterReads: @escaping @Sendable () -> Void) {
        state.withLock { $0.handOff.attach(receiver, afterReads: afterReads) }
        afterReads()
    }
}

extension PreStartedTool where Kind: PreStartedToolLines {
    /// Starts `spec` on `backend` with sinks that hand every line to the kind, and returns at
    /// once; the kind's `ended` hears of the process's end, after its last line.
    /// - Parameter promptlyAtFirst: whether the lines are read as they come (the tool waits for
    ///   installtop meanwhile, as apt at its hook) until a driver says otherwise
    ///   (`ChildProcess.readPromptly`).
    func start(_ spec: ChildSpec, backend: ProcessBackend, promptlyAtFirst: Bool = false) {
        let process = backend.startChild(spec, sinks: ChildSinks(
            stdout: .text { [self] in kind.take(ToolLine(stream: .stdout, text: $0), of: self) },
            stderr: .text { [self] in kind.take(ToolLine(stream: .stderr, text: $0), of: self) },
            channel: .text { [self] in kind.take(ToolLine(stream: nil, text: $0), of: self) },
            afterReads: { [self] in withState { $0.handOff.afterReads }?() }, atMostEvery: Kind.Translator.handOnInterval,
            promptlyAtFirst: promptlyAtFirst))
        withState { $0.handOff.process = process }
        Task.detached(executorPreference: EngineTaskExecutor.shared) { [self] in
            kind.ended(await process.outcome, of: self)
        }
    }
}
