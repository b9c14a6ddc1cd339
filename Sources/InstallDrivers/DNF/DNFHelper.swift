/// How installtop runs its dnf helper (`Helper/installtop-dnf.py`, which speaks the protocol
/// its header states, and imports its modules from the package `installtop_dnf/` beside it):
/// the Python that has dnf's API, the script, and a job's arguments.
public struct DNFHelper: Sendable, Hashable {
    /// Resolve only (nothing changes, nothing is fetched), or resolve, fetch and run rpm.
    enum Mode: String {
        case plan, run
    }

    /// The Python whose modules include dnf's API: the system's, never one a `PATH` puts first
    /// (a pyenv or virtualenv python has no `dnf` module).
    public var python: String
    /// The helper script on disk, its package `installtop_dnf/` in the same folder.
    public var script: String

    public init(script: String, python: String = "/usr/bin/python3") {
        self.python = python
        self.script = script
    }

    /// The helper's environment beside installtop's: its temporary files (its private home for
    /// rpm, what Lua scriptlets print) go into the helper's own folder, which installtop removes
    /// when it ends, so that a helper killed from outside leaves nothing behind.
    var environment: [String: String] {
        ["TMPDIR": String(script[..<(script.lastIndex(of: "/") ?? script.startIndex)])]
    }

    /// The command line of `job` in `mode`; a run `expecting` the plan refuses a transaction
    /// that is not exactly it, and a run `keepingInto` a folder keeps there every installed
    /// version it takes away, before rpm's transaction.
    func arguments(_ mode: Mode, job: DNFJob, expecting plan: [DNFPlanItem] = [], keepingInto folder: String? = nil) -> [String] {
        var arguments = [python, script, mode.rawValue]
        if let root = job.installRoot { arguments += ["--installroot", root] }
        if mode == .run, let folder { arguments += ["--keep-into", folder] }
        if let release = job.releaseVersion { arguments += ["--releasever", release] }
        for item in plan { arguments += ["--expect", item.expectation] }
        return arguments + job.request.arguments
    }
}
