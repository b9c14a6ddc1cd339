/// How enrolling one host ended.
enum EnrollOutcome: Sendable, Equatable {
    /// Every step verified; `changed` the steps that changed something (none: it was enrolled already).
    case enrolled(changed: [EnrollStep])
    /// `step` failed: what failed, the host's own last words, and the fix. The later steps were not tried.
    case failed(step: EnrollStep, text: String, words: [String], fix: String)
    /// ssh did not get there (or the link went away): ssh's own words.
    case unreachable(reason: String)

    var succeeded: Bool {
        if case .enrolled = self { return true }
        return false
    }
}
