/// What planning an armed job (`ArmedJob.prepare`) found, before anything runs.
enum ArmingPreparation: Sendable, Hashable {
    /// Nothing to do: this line is said on stdout, and the command exits 0.
    case nothingToDo(String)
    /// The job could not be planned (the tool refused it): its words; nothing was run, exit 2.
    case unplanned(String)
    /// The revert could not be planned: one reason a package; nothing was run, exit 2.
    case refused([String])
    /// The job can be armed; these of its packages take effect only after a reboot.
    case armable(rebootOnly: [String])
}
