/// The keys `defaults`, a job and an update share. Each field is `nil` when that level does
/// not set it, so levels can be layered: update over job over defaults.
struct UpdateSettings {
    /// Outer `nil`: not set here. Inner `nil`: set to `none`, no limit (overrides an outer one).
    var timeout: Duration??
    var abortGrace: Duration?
    var rebootBehavior: RebootBehavior?
    var impact: InstallationImpact?
    /// Where `impact` is written, to point the rule-2 error at it.
    var impactPosition: SourcePosition?
    var progressSource: ProgressSource?
    /// Absolute and standardized.
    var workingDirectory: String?
    var environment: [String: String] = [:]

    /// These settings with every field `inner` sets replacing ours; environments merge, with
    /// `inner`'s value winning for a name both set.
    func overridden(by inner: UpdateSettings) -> UpdateSettings {
        var result = self
        if let timeout = inner.timeout { result.timeout = timeout }
        if let abortGrace = inner.abortGrace { result.abortGrace = abortGrace }
        if let rebootBehavior = inner.rebootBehavior { result.rebootBehavior = rebootBehavior }
        if let impact = inner.impact {
            result.impact = impact
            result.impactPosition = inner.impactPosition
        }
        if let progressSource = inner.progressSource { result.progressSource = progressSource }
        if let workingDirectory = inner.workingDirectory { result.workingDirectory = workingDirectory }
        result.environment.merge(inner.environment) { _, innerValue in innerValue }
        return result
    }
}
