/// The job's figures (rules 5–6): each update's percent and the job's, the snapshot that
/// carries them and its announcement. The one place where the never-lower rule is applied to
/// what reaches the job's callbacks, and so every event and consumer after them: each
/// figure is a `JobPercent`, which only rises and stays within 0…100.
extension JobMachine {
    /// An immutable snapshot (rules 5 and 6): every update weighs the same; updates in progress
    /// count by their own percentage. An update not started yet shows 0.
    public func progress() -> InstallationProgress {
        let currentCode = resultList[currentIndex].resultCode
        return InstallationProgress(
            currentUpdateIndex: currentIndex,
            currentUpdatePercentComplete: currentCode == .notStarted ? 0 : runs[currentIndex].percent.value,
            percentComplete: jobPercent.value,
            currentUpdateIsIndeterminate: runs[currentIndex].isIndeterminate,
            currentUpdateMessage: runs[currentIndex].message,
            jobMessage: jobMessage,
            sharing: resultList)
    }

    /// Rule 6's figure for the whole job, or the driver's when it is higher: it never goes down.
    var jobPercent: JobPercent { ruleSixPercent.advanced(to: driverJobPercent) }

    /// Update `index` reported `percent` (`nil`: none) and `message` (`nil`: none); a change is
    /// announced as its progress. Its percent only rises (`UpdateRunState.apply`).
    mutating func applyProgress(at index: Int, percent: Double?, message: String?, into actions: inout [JobAction]) {
        let before = runs[index].percent
        guard runs[index].apply(percent: percent, message: message) else { return }
        // In progress is the same as being in `runningIndices`, without hashing on each event.
        if runs[index].percent != before, resultList[index].resultCode == .inProgress {
            runningPercentChanged(from: before.value, to: runs[index].percent.value)
        }
        notify(.progress(index: index), into: &actions)
    }

    /// Announces `change` with a snapshot; a `.progress` change also carries the figures of the
    /// update it names (`ProgressFigures`), so no one reads them back out of the snapshot.
    mutating func notify(_ change: JobChange, into actions: inout [JobAction]) {
        guard reportsProgress else { return }
        var figures: ProgressFigures?
        if case .progress(let index) = change {
            let run = runs[index]
            figures = ProgressFigures(percent: run.isIndeterminate ? nil : run.percent.value, message: run.message)
        }
        actions.append(.notify(InstallationProgressChangedArgs(progress: progress(), change: change, figures: figures)))
    }

    /// Takes the driver's figure for the whole job (already checked to be within 0…100);
    /// returns whether it rose.
    mutating func raiseDriverJobPercent(to percent: Double) -> Bool {
        driverJobPercent.advance(to: percent)
    }

    /// Update `index` is given `result` (`setResult`): keeps the counts rule 6's figure is made
    /// of in step, how many updates are final, which run and the sum of their percents, and
    /// raises the figure when they have.
    mutating func countResult(_ result: UpdateInstallationResult, at index: Int) {
        if resultList[index].resultCode.isFinal { finishedCount -= 1 }
        if result.resultCode.isFinal { finishedCount += 1 }
        let percent = runs[index].percent.value
        if result.resultCode == .inProgress {
            if runningIndices.insert(index).inserted {
                runningPercentSum = runningIndices.count == 1 ? percent : runningPercentSum + percent
            }
        } else if runningIndices.remove(index) != nil {
            resyncOrSubtract(percent)
        }
        refreshRuleSixPercent()
    }

    /// A running update's percent went from `old` to `new`.
    mutating func runningPercentChanged(from old: Double, to new: Double) {
        runningPercentSum = runningIndices.count == 1 ? new : runningPercentSum - old + new
        refreshRuleSixPercent()
    }

    /// An update at `percent` stopped running. Down to one (or none), the sum is set afresh,
    /// so what rounding gathered while several ran is gone.
    private mutating func resyncOrSubtract(_ percent: Double) {
        switch runningIndices.count {
        case 0: runningPercentSum = 0
        case 1: runningPercentSum = runningIndices.first.map { runs[$0].percent.value } ?? 0
        default: runningPercentSum -= percent
        }
    }

    /// `100 × (finished + Σ running%/100) / count`, never below its last value nor above 100.
    private mutating func refreshRuleSixPercent() {
        let runningShare = max(0, runningPercentSum) / 100
        ruleSixPercent.advance(to: 100 * (Double(finishedCount) + runningShare) / Double(resultList.count))
    }
}
