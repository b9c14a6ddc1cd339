/// What the night's machine asks its runner to do, in order. The runner performs each before
/// the next: `writeStamp` comes before the step it records, so a crash after it leaves a stamp
/// that already says the step began.
public enum NightAction: Sendable, Hashable {
    /// Write the machine's state (`NightStamp`) atomically.
    case writeStamp
    /// Patch `host` of wave `wave`: the `before` command, its package job armed with the gate's
    /// `confirm`, its confirmation, the `after` command; report with `hostEnded`.
    case startHost(String, wave: Int)
    /// After a restart: find out from `host`'s engine (of wave `wave`) how the step the stamp
    /// says was running ended (its job run, confirmed or reverted), without starting anything,
    /// then run the `after` command its `before` was run for; report with `hostEnded`.
    case recoverHost(String, wave: Int)
    /// Run the gate's command for wave `wave`, whose `confirmed` hosts were confirmed; report
    /// with `gateEvaluated` (at once, passed, when there is no command).
    case evaluateGate(wave: Int, confirmed: [String])
    /// Run the `notify:` command with a summary.
    case notify(NightNotice)
}
