/// An immutable snapshot of a job's progress (WUA `IInstallationProgress`, rule 5).
///
/// Percentages never go down while a job runs (rule 6). `percentComplete` gives every update
/// equal weight: `100 × (finished + current%/100) / count`.
public struct InstallationProgress: Sendable, Hashable {
    /// Zero-based index of the update running now, or of the last one when the job is over.
    public let currentUpdateIndex: Int
    /// 0–100.
    public let currentUpdatePercentComplete: Double
    /// 0–100, the whole job.
    public let percentComplete: Double
    /// True while the current update has not reported any percentage (rule 7): show elapsed
    /// time and a moving indicator, never a frozen 0 %.
    public let currentUpdateIsIndeterminate: Bool
    /// The latest status text of the current update, if it reported any.
    public let currentUpdateMessage: String?
    /// The driver's status text for the whole job as it stands (`downloading 12 of 50 · …`,
    /// `repairing: dpkg --configure -a …`), said while no update is the one to show it on;
    /// `nil` when the driver has none (never set, or cleared).
    public let jobMessage: String?
    /// Shared with the machine that took the snapshot, in chunks, so that the machine's next
    /// change does not copy every update's result while this snapshot is alive.
    private let updateResults: UpdateResultList

    public init(
        currentUpdateIndex: Int,
        currentUpdatePercentComplete: Double,
        percentComplete: Double,
        currentUpdateIsIndeterminate: Bool,
        currentUpdateMessage: String?,
        jobMessage: String? = nil,
        updateResults: [UpdateInstallationResult]
    ) {
        self.init(currentUpdateIndex: currentUpdateIndex, currentUpdatePercentComplete: currentUpdatePercentComplete,
                  percentComplete: percentComplete, currentUpdateIsIndeterminate: currentUpdateIsIndeterminate,
                  currentUpdateMessage: currentUpdateMessage, jobMessage: jobMessage, sharing: UpdateResultList(updateResults))
    }

    /// The machine's snapshot: shares `updateResults` instead of copying them.
    init(
        currentUpdateIndex: Int,
        currentUpdatePercentComplete: Double,
        percentComplete: Double,
        currentUpdateIsIndeterminate: Bool,
        currentUpdateMessage: String?,
        jobMessage: String?,
        sharing updateResults: UpdateResultList
    ) {
        self.currentUpdateIndex = currentUpdateIndex
        self.currentUpdatePercentComplete = currentUpdatePercentComplete
        self.percentComplete = percentComplete
        self.currentUpdateIsIndeterminate = currentUpdateIsIndeterminate
        self.currentUpdateMessage = currentUpdateMessage
        self.jobMessage = jobMessage
        self.updateResults = updateResults
    }

    /// How many updates the job has.
    public var updateCount: Int { updateResults.count }

    /// The result of update `index` as of this snapshot (`notStarted`, `inProgress` or final).
    /// - Precondition: `0 <= index < updateCount`.
    public func updateResult(at index: Int) -> UpdateInstallationResult {
        updateResults[index]
    }
}
