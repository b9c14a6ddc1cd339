import InstallEngine

/// What a piece of apt's end work found (`APTTranslator.perform` of an `APTEndWork`), for the
/// translator's next decision.
enum APTEndFinding: Sendable {
    /// What was left of the transaction was killed (`killed`); `end` says where dpkg was.
    case restStopped(killed: [ProcessTree.Member], end: APTUnexpectedEnd)
    /// The repair after `kill` ran: what it did, and dpkg's state between.
    case repaired(APTKill, APTForcedStop)
    /// What apt-get started has ended (or was killed after the grace).
    case restEnded(APTGracefulEnd)
    /// What the graceful stop left to dpkg was finished, as `outcome` says.
    case gracefulRepaired(APTGracefulEnd, APTRepairOutcome)
    /// How to finish what apt left unfinished once the cause is fixed; `nil`: nothing left.
    case leftUnfinished(String?)
    /// dpkg's final state and the reboot list after everything else.
    case finalStates([String: APTPackageState], rebootList: Set<String>, forcedStop: APTForcedStop?)
}
