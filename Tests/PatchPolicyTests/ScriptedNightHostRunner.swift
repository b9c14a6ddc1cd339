import PatchPolicy
import Synchronization

/// A `NightHostRunner` that answers from a script: each host's outcome (confirmed unless
/// scripted otherwise), each gate's verdict, and hosts whose step waits until the test lets it
/// end (`release`), so that a window can close while a host runs. Records what it was asked.
final class ScriptedNightHostRunner: NightHostRunner {
    private struct State {
        var patched: [String] = []
        var recovered: [String] = []
        var gates: [(wave: Int, confirmed: [String])] = []
        /// The last stamp written when each host was started.
        var stepAtStart: [String: HostStep] = [:]
    }

    private let outcomes: [String: HostOutcome]
    private let gateVerdicts: [Int: (passed: Bool, reason: String)]
    private let waiting: [String: AsyncStream<Void>]
    private let releases: [String: AsyncStream<Void>.Continuation]
    private let state = Mutex(State())
    /// The machine as last stamped, which `patch` reads to prove the stamp came first.
    let lastStamp = Mutex<NightMachine?>(nil)

    init(outcomes: [String: HostOutcome] = [:], gates: [Int: (passed: Bool, reason: String)] = [:], held: [String] = []) {
        self.outcomes = outcomes
        gateVerdicts = gates
        var waiting: [String: AsyncStream<Void>] = [:]
        var releases: [String: AsyncStream<Void>.Continuation] = [:]
        for host in held {
            let (stream, continuation) = AsyncStream<Void>.makeStream()
            waiting[host] = stream
            releases[host] = continuation
        }
        self.waiting = waiting
        self.releases = releases
    }

    var patched: [String] { state.withLock { $0.patched } }
    var recovered: [String] { state.withLock { $0.recovered } }
    var gates: [(wave: Int, confirmed: [String])] { state.withLock { $0.gates } }
    var stepAtStart: [String: HostStep] { state.withLock { $0.stepAtStart } }

    /// Lets `host`'s held step end.
    func release(_ host: String) {
        releases[host]?.yield()
    }

    func patch(host: String, wave: Int) async -> HostOutcome {
        let stamped = lastStamp.withLock { $0?.steps[host] }
        state.withLock {
            $0.patched.append(host)
            $0.stepAtStart[host] = stamped
        }
        if let stream = waiting[host] {
            for await _ in stream { break }
        }
        return outcomes[host] ?? .confirmed
    }

    func recover(host: String, wave: Int) async -> HostOutcome {
        state.withLock { $0.recovered.append(host) }
        return outcomes[host] ?? .confirmed
    }

    func evaluateGate(wave: Int, confirmed: [String]) async -> (passed: Bool, reason: String) {
        state.withLock { $0.gates.append((wave, confirmed)) }
        return gateVerdicts[wave] ?? (true, "")
    }
}
