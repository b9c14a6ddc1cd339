/// An update's timeout and the graces that follow a stop (rule 11): the timers the machine
/// asked for come back here when they fire, and the grace an update gets before it is killed.
extension JobMachine {
    /// A timer scheduled by an earlier action fired. A timer of an update that has ended
    /// does nothing.
    ///
    /// A timeout stops the update as an abort would (rule 11): SIGTERM to its process group,
    /// SIGKILL once its abort grace is over, so its TERM trap can clean up. While in grace its
    /// status message counts down each second ("timed out after 30s; killing in 8s"). After an
    /// abort request the timeout only kills what the abort's own grace would kill anyway.
    public mutating func timerFired(_ timer: JobTimer) -> [JobAction] {
        switch timer {
        case .abortGrace(let index):
            guard phase == .running(index: index) else { return [] }
            return [.kill]
        case .timeout(let index):
            guard phase == .running(index: index) else { return [] }
            guard !abortRequested else { return [.kill] }
            runs[index].timedOut = true
            var actions: [JobAction] = [.terminate]
            countDownTimeoutGrace(at: index, left: abortGrace(for: index), into: &actions)
            return actions
        case .timeoutGrace(let index):
            guard phase == .running(index: index), let left = runs[index].timeoutGraceLeft else { return [] }
            var actions: [JobAction] = []
            countDownTimeoutGrace(at: index, left: left - min(left, .seconds(1)), into: &actions)
            return actions
        }
    }

    /// How long update `index` has between SIGTERM and SIGKILL: `--abort-grace` when given,
    /// otherwise the update's own.
    func abortGrace(for index: Int) -> Duration {
        abortGraceOverride ?? updates[index].abortGrace
    }

    /// Kills update `index` when its grace is over; otherwise says how long is left and asks to
    /// be called again a second later (or when the grace ends, if sooner).
    private mutating func countDownTimeoutGrace(at index: Int, left: Duration, into actions: inout [JobAction]) {
        runs[index].timeoutGraceLeft = left
        guard left > .zero else {
            actions.append(.kill)
            return
        }
        let limit = (updates[index].timeout ?? .zero).shortText
        let wholeSecondsLeft = Duration.seconds((left + .nanoseconds(999_999_999)).components.seconds)
        applyProgress(at: index, percent: nil, message: "timed out after \(limit); killing in \(wholeSecondsLeft.shortText)",
                      into: &actions)
        actions.append(.schedule(.timeoutGrace(index: index), after: min(left, .seconds(1))))
    }
}
