/// Where rpm is with one package of a dnf transaction, read from the helper's progress events
/// (`Helper/installtop-dnf.py`'s header; made by `Helper/installtop_dnf/progress.py`), and the
/// share of the package's bar each phase stands for, as `APTPackagePhase` does for dpkg's steps.
///
/// A package that rpm installs goes through: rpm reading its file from dnf's cache (every
/// package's digests and signature were verified before rpm's first element) 10 %, `%pre`
/// 20 %, its files from 25 % to 80 % by rpm's count, `%post` 85 %, and 100 % once rpm moved past
/// it. rpm reports a small payload's files as 0 and then all of them at once: the phases around
/// them are the bar's steps. An upgrade, downgrade or reinstall stops at 90 % when rpm moves on
/// to another package, since rpm erases the version it replaces only after installing every new
/// one: that cleanup (its start 91 %, `%preun` 92 %, the old files 93–97 %, `%postun` 98 %) ends
/// it. A removal (or an obsoleted package) is rpm beginning its erase 10 %, `%preun` 20 %, its
/// files 25–80 %, `%postun` 85 %. The bar never goes back: a phase that would lower it only
/// changes its text.
enum DNFPackagePhase: Hashable {
    /// rpm opens the package's file to install it.
    case reading
    /// rpm begins to erase the package (a removal, an obsoleted package, the version an
    /// upgrade replaces).
    case erasing
    /// A scriptlet runs: `%pre`, `%post`, `%preun`, `%postun`, `%pretrans`, `%posttrans`, a
    /// trigger (`%triggerin`…); `nil` when the helper did not say which.
    case scriptlet(String?, trigger: Bool)
    /// rpm writes or erases the package's files: the helper's `action` (`install`, `upgrade`,
    /// `cleanup`, `remove`…), `fraction` of rpm's count.
    case files(action: String, fraction: Double)
    /// dnf checks the rpm database after the transaction, or another step with no share.
    case other(String)

    /// The phase a helper's progress event says, or `nil` for one without a package's share
    /// (files with no count).
    init?(action: String, done: Int64, total: Int64, scriptlet: String?) {
        switch action {
        case "read": self = .reading
        case "erase": self = .erasing
        case "scriptlet", "trigger": self = .scriptlet(scriptlet, trigger: action == "trigger")
        case "install", "upgrade", "downgrade", "reinstall", "obsolete", "remove", "obsoleted", "cleanup":
            guard total > 0 else { return nil }
            self = .files(action: action, fraction: min(1, max(0, Double(done) / Double(total))))
        default: self = .other(action)
        }
    }

    /// The bar's percent of `item` once rpm reached this phase; `nil` when the phase has no
    /// share of the bar (`%posttrans`, a trigger, dnf's verification): only its text shows.
    func percent(of item: DNFPlanItem) -> Double? {
        let erases = item.action == .remove || item.action == .obsoleted
        let replaces = item.action == .upgrade || item.action == .downgrade || item.action == .reinstall
        switch self {
        case .reading:
            return erases ? nil : 10
        case .erasing:
            return erases ? 10 : (replaces ? 91 : nil)
        case .scriptlet(let name, let trigger):
            guard !trigger else { return nil }
            switch name {
            case "%pretrans": return erases ? nil : 5
            case "%pre": return erases ? nil : 20
            case "%post": return erases ? nil : 85
            case "%preun": return erases ? 20 : (replaces ? 92 : nil)
            case "%postun": return erases ? 85 : (replaces ? 98 : nil)
            default: return nil
            }
        case .files(let action, let fraction):
            if action == "cleanup" { return replaces ? 93 + 4 * fraction : nil }
            return 25 + 55 * fraction
        case .other:
            return nil
        }
    }

    /// The bar's percent when rpm moved past `item` having brought it to `percent`: done (100)
    /// once its files are in place, but an upgrade's new version waits at 90 for its old one's
    /// cleanup; `nil` when rpm left it before its files (it failed there: its verdict says so).
    static func percentPast(_ item: DNFPlanItem, at percent: Double) -> Double? {
        let replaces = item.action == .upgrade || item.action == .downgrade || item.action == .reinstall
        if replaces, percent < 97 { return percent >= 80 ? 90 : nil }
        return percent >= 80 ? 100 : nil
    }

    /// The package's status text in this phase: `reading the package`, `running %post`,
    /// `upgrading`, `cleaning up the old version`.
    var text: String {
        switch self {
        case .reading: return "reading the package"
        case .erasing: return "preparing to erase"
        case .scriptlet(let name, let trigger): return name.map { "running \($0)" } ?? (trigger ? "running triggers" : "running scriptlets")
        case .files(let action, _): return DNFRunState.phaseText(action)
        case .other(let action): return DNFRunState.phaseText(action)
        }
    }
}
