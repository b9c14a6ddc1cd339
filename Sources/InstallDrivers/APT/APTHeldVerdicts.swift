import InstallEngine

/// The verdicts apt gave that the job may not hear yet, in the order apt gave them: a package's
/// `Installed`/`Removed` (or its error) is held until dpkg's output has moved on to another
/// package or apt ends, since its last lines may still be on their way and apt's exit status
/// may still mark the last one (exit 100 with every package installed is `succeededWithErrors`).
/// A configuration that failed after dpkg unpacked the package waits for apt's last `dpkg
/// --configure --pending`, which tries it again: its verdict is dpkg's final state.
struct APTHeldVerdicts {
    /// Verdicts held back, in the order apt gave them.
    private(set) var held: [(index: Int, verdict: DriverVerdict)] = []
    /// Failed configurations apt tries again at its end, with apt's reason.
    private(set) var awaitingRetry: [(index: Int, reason: String)] = []

    /// Holds `verdict` of `index` until dpkg's output moves past it.
    mutating func hold(_ verdict: DriverVerdict, of index: Int) {
        held.append((index, verdict))
    }

    /// `index` failed to configure with `reason`; apt tries it again at its end.
    mutating func awaitRetry(of index: Int, reason: String) {
        awaitingRetry.append((index, reason))
    }

    /// Takes the held verdicts of the packages `passed` says dpkg's output has moved past, in
    /// the order apt gave them; the others stay held.
    mutating func release(where passed: (Int) -> Bool) -> [(index: Int, verdict: DriverVerdict)] {
        let released = held.filter { passed($0.index) }
        held.removeAll { passed($0.index) }
        return released
    }

    /// The last verdict apt gave, still held; `nil` when none is.
    var last: (index: Int, verdict: DriverVerdict)? { held.last }

    /// Takes the last verdict held (a repair after apt gives that package its verdict instead).
    mutating func takeLast() -> (index: Int, verdict: DriverVerdict)? {
        held.popLast()
    }

    /// Takes every verdict held, in order: apt has ended.
    mutating func takeAll() -> [(index: Int, verdict: DriverVerdict)] {
        defer { held.removeAll() }
        return held
    }

    /// Takes every failed configuration apt was to try again, in order: apt has ended.
    mutating func takeAwaitingRetry() -> [(index: Int, reason: String)] {
        defer { awaitingRetry.removeAll() }
        return awaitingRetry
    }

    /// The first package held and the first awaiting apt's retry: those whose lines dpkg's
    /// output may still be about.
    var firstUnsettled: [Int] {
        [held.first?.index, awaitingRetry.first?.index].compactMap { $0 }
    }
}
