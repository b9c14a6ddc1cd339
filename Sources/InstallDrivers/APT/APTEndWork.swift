import InstallEngine

/// A piece of blocking work apt's end asks `LineDriverRunner` to carry out
/// (`APTTranslator.perform`), as the translator decided on values from apt's words and its exit.
enum APTEndWork: Sendable {
    /// apt-get or dpkg ended by a signal installtop did not send (rule 25a): kill what is left of
    /// the transaction and find where dpkg was. `placeFromApt` is apt's last phase of the
    /// package it was on: the place when no script ran and dpkg had no package half-installed.
    case stopTheRest(APTUnexpectedEnd, placeFromApt: String?)
    /// After a forced stop (rule 25): dpkg's state right after the kill, then the repair
    /// (`APTRepair.afterForcedStop`), shown on the kill's target.
    case repairAfterKill(APTKill)
    /// apt-get ended on the stop's SIGINT outside a dpkg run: what it started is let end for up
    /// to `APTTranslator.remainsGrace`, what still runs then is killed; then the graceful end.
    case letTheRestEnd(then: APTGracefulEnd)
    /// After a graceful stop: what the stop left to dpkg (`APTRepair.afterGracefulStop`).
    case repairAfterGracefulStop(APTGracefulEnd)
    /// apt failed on its own: what it left unfinished (`APTRepair.leftUnfinished`), nothing retried.
    case checkLeftUnfinished
    /// dpkg's final state and Debian's reboot list, which every package is settled from
    /// (`APTRunState.aptEnded`), with the forced stop's repair when there was one.
    case readFinalStates(forcedStop: APTForcedStop?)
}
