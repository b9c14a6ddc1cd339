/// What a patch process starting inside a window does with the stamp it finds: the rule that
/// makes a crash or a reboot of the admin machine a resumed or a missed night, never a
/// double run.
public enum NightResumption: Sendable, Hashable {
    /// No stamp of this window's opening: a new night.
    case fresh
    /// The night of this opening was under way: continue it (`NightMachine.resume()`).
    case resume(NightMachine)
    /// The night of this opening is over (finished or stopped): nothing runs until the next one.
    case over(NightPhase)
    /// The stamp is of this opening but of another policy file (`policy`) or stamp version:
    /// starting would risk patching its hosts a second time, so nothing runs.
    case foreign(policy: String)

    /// The decision for the window opening `window`, given the stamp found (`nil`: none) and
    /// the policy's path as the stamp records it (the runner makes it absolute, so that
    /// `night.yaml` and `./night.yaml` are one policy). A stamp of another opening is an
    /// earlier night's and does not count.
    public static func decide(stamp: NightStamp?, policy: String, window: WindowOccurrence) -> NightResumption {
        guard let stamp, stamp.window == window else { return .fresh }
        guard stamp.version == NightStamp.currentVersion, stamp.policy == policy else { return .foreign(policy: stamp.policy) }
        return stamp.machine.phase.isOver ? .over(stamp.machine.phase) : .resume(stamp.machine)
    }
}
