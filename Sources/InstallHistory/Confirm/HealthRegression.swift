/// A check that was healthier before a commit-confirmed job than after it, with both readings:
/// what `installtop history --jobs` and the waiting command show.
public struct HealthRegression: Sendable, Hashable, Codable {
    public var check: String
    public var before: String
    public var after: String

    /// `sshd -t: passed → failed: exit status 255: …`.
    public var text: String { "\(check): \(before) → \(after)" }
}
