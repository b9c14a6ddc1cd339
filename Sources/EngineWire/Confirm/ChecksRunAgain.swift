/// What an armed run's checks said when its engine ran them again (`checkRun`), as its reply
/// carries it: `{"reply":"checkRun","ok":true,"said":"…","regressions":["…"],"reverts":true}`.
public struct ChecksRunAgain: Sendable, Hashable {
    /// The run's checks in a sentence: `run 12: checks run again: passed`.
    public var said: String
    /// Each check that regressed now against the checks before the job, as `check: before →
    /// after`; empty when none did.
    public var regressions: [String]
    /// The window reverts the run at once for a regression (`revertOnRegression`), and one
    /// was found: its engine is reverting it.
    public var reverts: Bool

    public init(said: String, regressions: [String], reverts: Bool) {
        self.said = said
        self.regressions = regressions
        self.reverts = reverts
    }

    /// The reply's members.
    public var fields: [String: JSONValue] {
        ["said": .string(said), "regressions": .array(regressions.map(JSONValue.string)), "reverts": .bool(reverts)]
    }

    /// Reads a `checkRun` reply's members.
    /// - Throws: `unexpectedMessage` when `said` is missing.
    public init(fields: [String: JSONValue]) throws(WireError) {
        guard let said = fields["said"]?.stringValue else { throw WireError(.unexpectedMessage, "checkRun: the reply has no `said`") }
        let regressions = fields["regressions"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.init(said: said, regressions: regressions, reverts: fields["reverts"]?.boolValue ?? false)
    }
}
