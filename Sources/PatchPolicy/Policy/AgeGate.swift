/// Take an update only once its candidate version has been known for a while, so that a broken
/// release is usually withdrawn before a night takes it (Ubuntu's phasing and the "cooldown"
/// of dependency bots rest on the same idea); security updates have their own, usually shorter, age.
public struct AgeGate: Sendable, Hashable {
    /// Seconds a candidate version must be known before it is taken; 0 takes it at once.
    public let updates: Int
    /// The same for upgrades from a security origin.
    public let security: Int

    public init(updates: Int = 0, security: Int = 0) {
        self.updates = updates
        self.security = security
    }

    /// Whether any update has to wait (an age of more than 0).
    public var isActive: Bool { updates > 0 || security > 0 }

    /// Whether `package`'s candidate version, first seen at `firstSeen` (seconds since 1970, as
    /// the host's pending snapshots first listed it), is old enough at `now`. A version seen at
    /// `now` exactly is taken only with an age of 0; one first seen after `now` (a clock set
    /// back) is never old enough.
    public func decision(package: String, firstSeen: Int, isSecurity: Bool, now: Int) -> AgeDecision {
        let age = isSecurity ? security : updates
        let due = firstSeen + age
        return now >= due ? .take(package: package) : .wait(package: package, until: due)
    }
}
