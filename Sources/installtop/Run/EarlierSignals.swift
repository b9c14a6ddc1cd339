import Glibc
import Synchronization

/// Termination signals a caller took before a run handled them itself (`installtop apt
/// --yes`, while the run opens its history: apt runs dpkg already; the monitor's relay, until
/// its terminal takes them). The run counts them as its own when it takes over, and one the
/// caller's relay reads only after that is handed on to the run instead of being lost.
final class EarlierSignals: Sendable {
    private let state = Mutex<(signals: [Int32], taker: (@Sendable (Int32) -> Void)?)>(([], nil))

    init() {}

    /// The caller's relay read `signal`. Returns true when a run has taken over: the signal
    /// was handed on to it, and the caller does nothing more with it.
    @discardableResult
    func take(_ signal: Int32) -> Bool {
        let taker = state.withLock { state -> (@Sendable (Int32) -> Void)? in
            if state.taker == nil { state.signals.append(signal) }
            return state.taker
        }
        taker?(signal)
        return taker != nil
    }

    /// The run takes over: later signals go to `taker`. Returns how many came before (and were
    /// not taken with `takeAll`), and the last of them (SIGINT for none).
    func takeOver(_ taker: @escaping @Sendable (Int32) -> Void) -> (count: Int, last: Int32) {
        state.withLock { state in
            state.taker = taker
            defer { state.signals = [] }
            return (state.signals.count, state.signals.last ?? SIGINT)
        }
    }

    /// The signals that came so far, in order, taken: a later `takeOver` does not count them.
    func takeAll() -> [Int32] {
        state.withLock { state in
            defer { state.signals = [] }
            return state.signals
        }
    }
}
