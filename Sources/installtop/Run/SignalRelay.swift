import Dispatch
import Glibc
import Synchronization

/// Each signal's relay pipe (its write end), indexed by signal number; -1 when no relay takes
/// it. Read by `relaySignal` (an atomic load is async-signal-safe); the storage is never freed,
/// so a late signal never reads freed memory.
private nonisolated(unsafe) let relayWriteEnds: UnsafeMutablePointer<Atomic<Int32>> = {
    let storage = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: 65)
    for index in 0..<65 { (storage + index).initialize(to: Atomic(-1)) }
    return storage
}()

/// Each signal's count of arrivals while no relay took it, after one had (`SignalRelay.cancel`):
/// the next relay's. Never freed, like `relayWriteEnds`.
private nonisolated(unsafe) let parkedSignals: UnsafeMutablePointer<Atomic<Int32>> = {
    let storage = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: 65)
    for index in 0..<65 { (storage + index).initialize(to: Atomic(0)) }
    return storage
}()

/// The handler of a relayed signal: async-signal-safe bookkeeping only (loads, an atomic add
/// and one `write`).
private func relaySignal(_ signal: Int32) {
    let savedErrno = errno
    let descriptor = relayWriteEnds[Int(signal)].load(ordering: .acquiring)
    if descriptor >= 0 {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(descriptor, &byte, 1)
    } else {
        parkedSignals[Int(signal)].add(1, ordering: .relaxed)
    }
    errno = savedErrno
}

/// Turns SIGINT, SIGTERM and SIGHUP into calls of a handler (with how many have arrived so far),
/// instead of the default of dying with children still running. Children are unaffected: the
/// process backend resets their signal dispositions when it spawns them.
///
/// The signals are caught by a handler of its own, installed before `init` returns, that writes
/// each into a pipe a dispatch source reads. A dispatch signal source alone (with SIG_IGN set
/// first, so that no signal kills the process meanwhile) lost signals: libdispatch installs its
/// handler later, on its manager thread (about a millisecond later on an idle machine), and a
/// signal meanwhile was ignored; setting SIG_IGN discarded one already pending (sent while it
/// was blocked); and libdispatch installs its handler once per process, so a second relay after
/// a first one's `cancel` (which restored the default then) was deaf for good.
///
/// Relays nest: a relay made while another takes the same signal takes it until its `cancel`,
/// and the other takes it again from then on (a run's own relay inside `installtop apt --yes`'s).
/// Once the last one is cancelled the signal is *parked*, not given back to the default
/// disposition: a SIGINT between two owners (after a run's summary, between a fleet's check
/// and its run, while the process exits) once killed installtop with its status lost (exit
/// -2 where the run said 3). A parked signal goes to the next relay, as if it had come just
/// after that relay was made; when none comes the process ends as its work decided. Before the
/// first relay the default stays: nothing has started that a signal could leave behind.
final class SignalRelay {
    private let source: any DispatchSourceRead
    private let signals: [Int32]
    /// Each signal's write end before this relay took it (-1: none), given back by `cancel`.
    private let previousWriteEnds: [Int32]

    /// - Parameter handler: called on a private queue with the signal and the running count of
    ///   signals received (1 for the first), signals parked since the last relay first.
    init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], handler: @escaping @Sendable (Int32, Int) -> Void) {
        self.signals = signals
        var ends: [Int32] = [-1, -1]
        // Fails only when out of descriptors, before any job has started.
        guard pipe(&ends) == 0 else { preconditionFailure("installtop: no pipe for the signal relay") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Children never get these (the spawn closes every other descriptor too); a full pipe
        // drops a byte rather than block the handler.
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let queue = DispatchQueue(label: "installtop.signals")
        let counter = Counter()
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 16)
            while true {
                let count = read(readEnd, &bytes, bytes.count)
                guard count > 0 else { break }
                for byte in bytes.prefix(count) { handler(Int32(byte), counter.next()) }
            }
        }
        // The write end stays open for good: a handler that loaded it just before `cancel`
        // must never write into a descriptor number the process has since reused (a history
        // database's). Writing into a pipe nobody reads fails with EPIPE, which is ignored.
        source.setCancelHandler { close(readEnd) }
        source.resume()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = relaySignal
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        var relayed = sigset_t()
        sigemptyset(&relayed)
        var previous: [Int32] = []
        for signal in signals {
            previous.append(relayWriteEnds[Int(signal)].exchange(writeEnd, ordering: .acquiringAndReleasing))
            sigaction(signal, &action, nil)
            sigaddset(&relayed, signal)
        }
        previousWriteEnds = previous
        // Parked since the last relay: this relay's, in the order of its signals.
        for signal in signals {
            var byte = UInt8(truncatingIfNeeded: signal)
            for _ in 0..<parkedSignals[Int(signal)].exchange(0, ordering: .relaxed) { _ = write(writeEnd, &byte, 1) }
        }
        // Started with them blocked (a parent's mask is inherited), they would wait forever: one
        // already pending arrives now.
        pthread_sigmask(SIG_UNBLOCK, &relayed, nil)
    }

    /// Stops relaying: the relay this one was made inside takes the signals again, or, when
    /// there is none, they are parked for the next relay.
    func cancel() {
        for (signal, previous) in zip(signals, previousWriteEnds) {
            relayWriteEnds[Int(signal)].store(previous, ordering: .releasing)
        }
        source.cancel()
    }

    private final class Counter: Sendable {
        private let count = Atomic(0)
        func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    }
}
