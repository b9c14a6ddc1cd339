import InstallEngine

/// What an abort does to a job, by its kind, so that the question before it says what will
/// really happen (Documentation/ENGINE-SEMANTICS.md rules 11, 24 and 29).
enum JobStopBehaviour: Hashable {
    /// A job of commands: its running update's process group gets SIGTERM, then SIGKILL after
    /// its grace (rule 11).
    case stopsRunningUpdate
    /// A job its driver runs (apt's transaction): it stops at the driver's next safe point, the
    /// running update finishing first (rule 24), as its kind says it (`JobStopNote`; `nil`
    /// when the driver says nothing of it).
    case finishesAtSafePoint(JobStopNote?)
    /// A job a driver declared as it ran (an Ansible host, a protocol driver's job): it stops
    /// at the next task boundary, the running task finishing first (rule 24).
    case finishesRunningTask
    /// A transaction another program runs, which installtop only watches (rule 29).
    case watchedOnly(ObservedInitiator)

    /// How `descriptor`'s job stops.
    init(_ descriptor: JobDescriptor) {
        if let initiator = descriptor.observedBy {
            self = .watchedOnly(initiator)
        } else if descriptor.declaredByDriver {
            self = .finishesRunningTask
        } else if descriptor.runByDriver {
            self = .finishesAtSafePoint(descriptor.stopNote)
        } else {
            self = .stopsRunningUpdate
        }
    }

    /// The sentence under "Abort NAME?"; `nil` for a job that cannot be aborted.
    var consequence: String? {
        switch self {
        case .stopsRunningUpdate: return "Its running update is stopped."
        case .finishesAtSafePoint(let note): return note?.sentence ?? "Its running update finishes first; no other starts."
        case .finishesRunningTask: return "Its running task finishes first."
        case .watchedOnly: return nil
        }
    }

    /// What a forced abort does, after "Forcing the abort of NAME: ".
    var forcing: String {
        if case .finishesAtSafePoint(let note?) = self, let forcing = note.forcing { return forcing }
        return "its processes are killed now"
    }

    /// Why `a` asks nothing for a job that cannot be aborted, naming it `name`; `nil` for one
    /// that can.
    func refusal(name: String) -> String? {
        guard case .watchedOnly(let initiator) = self else { return nil }
        if let marker = initiator.installtopRun {
            return "\(name) is run by another installtop engine (pid \(marker.enginePID)): stop it there, where it stops safely"
        }
        return "\(name) is run by \(initiator.programName) (pid \(initiator.pid)): installtop only watches it and cannot stop it"
    }

    /// What `A`'s question says will happen to `jobs` (the unfinished ones): one sentence per
    /// way they stop, in the order above.
    static func consequences(of jobs: [JobDescriptor]) -> [String] {
        let behaviours = jobs.map(JobStopBehaviour.init)
        var lines: [String] = []
        if behaviours.contains(.stopsRunningUpdate) { lines.append("Running updates are stopped.") }
        var notes: [String] = []
        for case .finishesAtSafePoint(let note) in behaviours {
            let short = note?.short ?? "Other drivers finish their running update first."
            if !notes.contains(short) { notes.append(short) }
        }
        lines += notes
        if behaviours.contains(.finishesRunningTask) { lines.append("Hosts finish their running task first.") }
        let watched = behaviours.count { if case .watchedOnly = $0 { true } else { false } }
        if watched > 0 { lines.append("\(watched) watched \(watched == 1 ? "job goes" : "jobs go") on: installtop cannot stop \(watched == 1 ? "it" : "them").") }
        return lines
    }
}
