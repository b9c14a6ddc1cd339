/// Why the queue refused a command (abort, clean-up, retry). The text is the reply a monitor or
/// daemon client shows.
public enum JobCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownJob(Int)
    case alreadyCompleted(Int)
    case notCompleted(Int)
    case nothingToRetry(Int)
    /// A decline of a job that needed no confirmation, or has it already.
    case notAwaitingConfirmation(Int)
    /// An observed job (rule 29): another program's transaction, which installtop cannot stop.
    case observed(Int, program: String, pid: Int32)
    /// Another installtop engine's apt job, which this engine shows: that engine stops it.
    case otherEngines(Int, InstalltopRunMarker)

    public var description: String {
        switch self {
        case .unknownJob(let id): return "there is no job \(id)"
        case .alreadyCompleted(let id): return "job \(id) has already completed"
        case .notCompleted(let id): return "job \(id) has not completed yet"
        case .nothingToRetry(let id): return "job \(id) has no failed or aborted updates to retry"
        case .notAwaitingConfirmation(let id): return "job \(id) does not await a yes: it can only be aborted"
        case .observed(let id, let program, let pid):
            return "job \(id) is \(program)'s (pid \(pid)), which installtop only watches: it cannot be stopped from here "
                + "(apt defers a SIGINT to its end, and a SIGTERM would leave dpkg's database broken)"
        case .otherEngines(let id, let marker):
            return "job \(id) is \(marker.title), run by the installtop engine of pid \(marker.enginePID): stop it there "
                + "(`a` in its monitor, or Ctrl-C where it runs), which stops apt safely"
        }
    }
}
