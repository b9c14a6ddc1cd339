/// Keeping for undo in a run of a kind's tool that installtop only observes (rule 37): what the
/// tool's hooks run as `installtop hooks keep begin|end` (`KindRegistration.observedRunKeeping`).
/// Nothing here may fail the tool's run: every failure is a line to say, never a throw.
protocol ObservedRunKeeping {
    /// Before the tool changes anything: keeps what `hookInput` (what its hook was handed) says
    /// the run replaces, and records the run. Returns the lines to say on stderr.
    func begin(hookInput: String) -> [String]

    /// After the tool's last change: records what became of each package of the runs `begin`
    /// recorded for this very run of the tool, and ends them. Returns the lines to say on stderr.
    func end() -> [String]
}
