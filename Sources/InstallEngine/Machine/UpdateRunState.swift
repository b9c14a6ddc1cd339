/// What a `JobMachine` knows about one update while it runs: its percentage and status text
/// (rule 6), what it reported, and whether the engine's timeout fired.
struct UpdateRunState: Sendable {
    var percent = 0.0
    var isIndeterminate = true
    var message: String?
    var errors: [String] = []
    var rebootReported = false
    var timedOut = false
    /// What is left of the grace after the timeout's SIGTERM; `nil` until the timeout fires.
    var timeoutGraceLeft: Duration?

    /// At most this many `error` texts are kept per update; more are counted in the reason.
    static let maximumKeptErrors = 100

    /// Rule 6: the percentage never goes down. Returns whether anything changed.
    mutating func apply(percent newPercent: Double?, message newMessage: String?) -> Bool {
        var changed = false
        if let newPercent, newPercent.isFinite {
            let clamped = min(100, max(0, newPercent))
            if clamped > percent || isIndeterminate {
                percent = max(percent, clamped)
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
