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

    /// The decision for the window opening `window`, given the stamp found (`nil`: none). A
    /// stamp of another policy file, of another opening or of another format version is an
    /// earlier night's and does not count.
    public static func decide(stamp: NightStamp?, policy: String, window: WindowOccurrence) -> NightResumption {
        guard let stamp, stamp.version == NightStamp.currentVersion, stamp.policy == policy, stamp.window == window else { return .fresh }
        return stamp.machine.phase.isOver ? .over(stamp.machine.phase) : .resume(stamp.machine)
    }
}
