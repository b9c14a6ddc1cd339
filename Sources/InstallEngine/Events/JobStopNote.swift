/// What an abort does to a job run by a driver, in the words of the tool it drives, for the
/// question before an abort (the monitor's `a` and `A`): its kind knows it, the engine only
/// carries it (`JobDriver.stopNote`, `JobDescriptor.stopNote`), so that a new kind of job says
/// its own (rule 24: the driver stops at its next safe point).
public struct JobStopNote: Sendable, Hashable {
    /// Under "Abort NAME?": what the running update does, then what stops, e.g. `apt finishes
    /// the running package (unpack and configure), then stops; no other package starts.`
    public var sentence: String
    /// In the question that aborts several jobs, for all of this kind at once: `apt finishes its
    /// running package first.`
    public var short: String
    /// What a forced abort (a second one) does, after "Forcing the abort of NAME: ", when it is
    /// not to kill the job's processes at once: `killed before rpm runs, refused while it runs`
    /// (dnf's). Short: the monitor's footer is one line. `nil`: its processes are
    /// killed now.
    public var forcing: String?

    public init(sentence: String, short: String, forcing: String? = nil) {
        self.sentence = sentence
        self.short = short
        self.forcing = forcing
    }
}
