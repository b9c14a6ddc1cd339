/// What a `JobMachine` knows about one update while it runs: its percentage and status text
/// (rule 6), what it reported, and whether the engine's timeout fired.
struct UpdateRunState: Sendable {
    /// Changed by `apply` (never lower) and by a success (`JobMachine.finish`: 100).
    var percent = JobPercent.zero
    var isIndeterminate = true
    var message: String?
    var errors: [String] = []
    var rebootReported = false
    var timedOut = false
    /// What is left of the grace after the timeout's SIGTERM; `nil` until the timeout fires.
    var timeoutGraceLeft: Duration?

    /// At most this many `error` texts are kept per update; more are counted in the reason.
    static let maximumKeptErrors = 100

    /// Rule 6: the percentage never goes down (`JobPercent`); a first figure ends the
    /// indeterminate state (rule 7) even at 0. A figure that is not finite (NaN, ∞) is no
    /// reading at all and changes nothing. Returns whether anything changed.
    mutating func apply(percent newPercent: Double?, message newMessage: String?) -> Bool {
        var changed = false
        if let newPercent, newPercent.isFinite {
            let raised = percent.advanced(to: newPercent)
            if raised > percent || isIndeterminate {
                percent = raised
                isIndeterminate = false
                changed = true
            }
        }
        if let newMessage, newMessage != message {
            message = newMessage
            changed = true
        }
        return changed
    }

    mutating func keep(error text: String) {
        if errors.count < Self.maximumKeptErrors { errors.append(text) }
    }
}
