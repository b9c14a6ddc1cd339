extension JobQueue {
    /// Carries out `command`, whoever gives it (a monitor's key, a daemon client's line): the
    /// one dispatch of a `JobCommand` to the queue. A clean-up returns at once and waits for its
    /// job without a task; `cleanedUp` gets its refusal, or `nil` once the job is removed and
    /// subscribers have seen it go, on the queue's callback thread (other commands never call it).
    /// - Throws: the command's refusal (`unknownJob`, `alreadyCompleted` …); nothing changed.
    @discardableResult
    public func perform(_ command: JobCommand, cleanedUp: @escaping @Sendable (JobCommandError?) -> Void = { _ in })
        throws(JobCommandError) -> JobCommandOutcome {
        switch command {
        case .abort(let job, let force):
            try abort(job: job, force: force)
        case .abortAll(let force):
            abortAll(force: force)
        case .cleanUp(let job):
            cleanUp(job: job, then: cleanedUp)
        case .retry(let job):
            return .requeued(try retry(job: job))
        case .confirm(let job):
            try confirm(job: job)
        case .decline(let job):
            try decline(job: job)
        }
        return .done
    }
}
