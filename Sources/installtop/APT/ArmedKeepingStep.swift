import EngineDaemon

/// What a step run between an armed run and its keeping (`ArmedHostFollower.beforeKeeping`, a
/// patch night's reboot) tells the follower.
enum ArmedKeepingStep {
    /// Go on over the same link.
    case goOn
    /// Go on over `client`, subscribed: the host rebooted and its old link is gone. The follower
    /// reads the run's window again from it (its engine may have reverted the run meanwhile)
    /// and closes it when done.
    case reconnected(EngineClient)
    /// The step ends the host's verdict here.
    case stop(ArmedHostVerdict)
}
