/// A job kind's planner refused a job: nothing of it ran.
public struct JobPlanRefusal: Error, Sendable {
    /// How the job reads (`apt install curl`, `ansible`).
    public var subject: String
    /// The refusal in the tool's own words.
    public var reason: String

    public init(subject: String, reason: String) {
        self.subject = subject
        self.reason = reason
    }
}
