/// The rule that says which checks regressed between the baseline before a commit-confirmed job
/// and the same checks after it (Documentation/COMMIT-CONFIRMED.md).
///
/// - A command check regressed when it passed before and fails after; one that failed before
///   is no regression, whatever it says after (the job did not break it).
/// - `failed units` regressed when a unit failed after that had not before.
/// - `listening TCP ports` regressed when a port listened before and does not after; a new
///   port is no regression.
/// - A check that did not run on either side, or that is missing on one side (a check added or
///   removed between the two), is not compared.
public enum HealthComparison {
    /// The set checks and what regresses in each: the items gained (failed units) or lost
    /// (ports).
    static let setChecks: [String: Direction] = [failedUnits: .gained, listeningPorts: .lost]

    /// The name of systemd's failed units check.
    public static let failedUnits = "failed units"
    /// The name of the listening TCP ports check.
    public static let listeningPorts = "listening TCP ports"

    enum Direction { case gained, lost }

    /// The regressions from `before` to `after`, in `after`'s order.
    public static func regressions(before: [HealthObservation], after: [HealthObservation]) -> [HealthRegression] {
        let earlier = Dictionary(before.map { ($0.check, $0) }, uniquingKeysWith: { first, _ in first })
        return after.compactMap { now in
            guard let then = earlier[now.check], then.ran, now.ran else { return nil }
            switch setChecks[now.check] {
            case .gained?:
                let gained = Set(now.items).subtracting(then.items).sorted()
                guard !gained.isEmpty else { return nil }
                return HealthRegression(check: now.check, before: then.text, after: now.text + " (new: \(gained.joined(separator: " ")))")
            case .lost?:
                let lost = Set(then.items).subtracting(now.items).sorted()
                guard !lost.isEmpty else { return nil }
                return HealthRegression(check: now.check, before: then.text, after: now.text + " (gone: \(lost.joined(separator: " ")))")
            case nil:
                guard then.passed, !now.passed else { return nil }
                return HealthRegression(check: now.check, before: then.text, after: now.text)
            }
        }
    }
}
