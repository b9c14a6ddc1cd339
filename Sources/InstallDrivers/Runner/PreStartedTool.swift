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
/// routed to its kind (`PreStartedToolKind.take`) and kept in order for that driver, how it
/// began, and its stop.
///
/// Its beginning is set once: by the kind when the plan comes, or when the tool ends before it.
/// `stop` interrupts the tool also after a driver took it over (apt's translator stops a hook
/// transaction through it); a forced stop is the driver's own, on the process it took.
final class PreStartedTool<Kind: PreStartedToolKind>: Sendable {
    /// What is kept under the tool's lock.
    struct State: Sendable {
        /// What the kind reads of the tool's lines until the plan.
        var reading: Kind.Reading
        /// The tool's process and its lines for the driver, until it takes them.
        var handOff = ToolHandOff()
        /// How the tool began; `nil` until the plan came or the tool ended.
        fileprivate(set) var beginning: Kind.Beginning?
    }

    private let state: Mutex<State>
    private let begun = DispatchSemaphore(value: 0)

    /// A tool with nothing started yet: `start` starts it.
    init(reading: Kind.Reading) {
        state = Mutex(State(reading: reading))
    }

    /// Starts `spec` on `backend` with sinks that hand every line to `kind`, and returns at once;
    /// `kind.ended` hears of the process's end, after its last line.
    /// - Parameter promptlyAtFirst: whether the lines are read as they come (the tool waits for
    ///   installtop meanwhile, as apt at its hook) until a driver says otherwise
    ///   (`ChildProcess.readPromptly`).
    func start(_ spec: ChildSpec, for kind: Kind, backend: ProcessBackend, promptlyAtFirst: Bool = false) {
        let process = backend.startChild(spec, sinks: ChildSinks(
            stdout: .text { kind.take(ToolLine(stream: .stdout, text: $0)) },
            stderr: .text { kind.take(ToolLine(stream: .stderr, text: $0)) },
            channel: .text { kind.take(ToolLine(stream: nil, text: $0)) },
            afterReads: { [self] in state.withLock { $0.handOff.afterReads }?() }, atMostEvery: Kind.Translator.handOnInterval,
            promptlyAtFirst: promptlyAtFirst))
        state.withLock { $0.handOff.process = process }
        Task.detached(executorPreference: EngineTaskExecutor.shared) {
            kind.ended(await process.outcome)
        }
    }

    /// Runs `body` under the tool's lock.
    func withState<Result>(_ body: (inout sending State) -> sending Result) -> sending Result {
        state.withLock(body)
    }

    /// Blocks until the tool has begun: the kind said its plan, or the tool ended before it.
    func waitForBeginning() -> Kind.Beginning {
        begun.wait()
        begun.signal()
        guard let beginning = state.withLock({ $0.beginning }) else { preconditionFailure("signalled before it began") }
        return beginning
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

    /// Asks the tool to stop: notes it (`stopRequested`), then SIGINT to the tool alone, which
    /// it handles as it handles an operator's interrupt.
    func stop() {
        state.withLock { state in
            state.handOff.stopRequested = true
            return state.handOff.process
        }?.interrupt()
    }

    /// Whether `stop` was called.
    var stopRequested: Bool { state.withLock { $0.handOff.stopRequested } }

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
