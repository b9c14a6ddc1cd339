import InstallEngine

extension EngineEvent {
    /// Gives the event job number `job` (the grouped board renumbers each host's jobs).
    mutating func setJob(_ job: Int) {
        switch kind {
        case .jobQueued(var descriptor): descriptor.id = job; kind = .jobQueued(descriptor)
        case .jobConfirmed(var event): event.job = job; kind = .jobConfirmed(event)
        case .jobStarted(var event): event.job = job; kind = .jobStarted(event)
        case .updateStarted(var event): event.job = job; kind = .updateStarted(event)
        case .progress(var event): event.job = job; kind = .progress(event)
        case .output(var event): event.job = job; kind = .output(event)
        case .updateCompleted(var event): event.job = job; kind = .updateCompleted(event)
        case .jobAbortRequested(var event): event.job = job; kind = .jobAbortRequested(event)
        case .jobCompleted(var event): event.job = job; kind = .jobCompleted(event)
        case .jobCleanedUp(var event): event.job = job; kind = .jobCleanedUp(event)
        }
    }
}
