/// Where an engine's commit-confirmed runs come from (`installtop serve` reads its history):
/// what it pushes to its clients (`armed` events), how `confirmRun` is decided and how
/// `checkRun` runs a run's checks again.
public protocol ArmedRunsSource: Sendable {
    /// Calls `body` with the runs at once, then each time they change, in order, one call at a
    /// time, until the source stops. `body` must be quick.
    func observe(_ body: @escaping @Sendable (ArmedRuns) -> Void)
    /// Confirms run `run`, or with `extend` moves its deadline to that many seconds from now;
    /// decided in the history against the revert (exactly one wins). Returns what was done, in
    /// a sentence, or the refusal. Blocks on the history: call it off the I/O thread.
    func decide(run: Int, extend: Double?) -> Result<String, WireError>
    /// Runs armed run `run`'s checks again now and records them in its window (`checkRun`);
    /// refused with `notArmed` when it is not armed. Blocks for as long as the checks run
    /// (each up to a minute): call it off the I/O thread.
    func checkAgain(run: Int) -> Result<ChecksRunAgain, WireError>
}
