#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Jobs that are one apt transaction (Documentation/APT-JOBS.md): `apt: {install: [curl]}` in a
/// manifest, planned by `APTPlanner` (each package an update) and run by an `APTDriver`.
public struct APTJobKind: JobKind {
    /// Makes the keeper of the versions a job replaces (rule 33); `nil`, or a `nil` keeper,
    /// keeps none.
    private let keepers: (@Sendable (PackageJob) -> (any APTVersionKeeping)?)?

    /// The root a job naming neither `apt_config` nor `chroot` is planned and run in (`serve
    /// --apt-config`: the root its pending snapshot is of); `nil`: `APT_CONFIG`, else the system's.
    private let defaultAPTConfig: String?

    /// - Parameter keepers: the keeper of each planned job's replaced versions (the history's,
    ///   for `run` and `serve`); none by default.
    ///   - defaultAPTConfig: the root of jobs that name none (`serve --apt-config`).
    public init(keepers: (@Sendable (PackageJob) -> (any APTVersionKeeping)?)? = nil, defaultAPTConfig: String? = nil) {
        self.keepers = keepers
        self.defaultAPTConfig = defaultAPTConfig
    }

    public var key: String { "apt" }
    public var sectionKeys: [String] { ["install", "upgrade", "full_upgrade", "remove", "reinstall", "apt_config", "chroot"] }
    public var sectionExpectation: String {
        "an apt request ({install: [packages]}, {upgrade: true}, {full_upgrade: true}, {remove: [packages]} or {reinstall: [packages]})"
    }
    public var updatesNote: String { "an apt job's updates are the packages apt plans" }

    public func operation(of spec: PackageJob) -> UpdateOperation? { spec.request.operation }
    public func describe(_ spec: PackageJob) -> String { Self.summary(of: spec.request) }

    public func validationPhrase(count: Int) -> String {
        (count == 1 ? "an apt transaction" : "\(count) apt transactions") + " (planned when it runs)"
    }

    public var declaresJobs: Bool { false }

    /// A package transaction is shown before it runs, here as in apt.
    public var asksBeforeRunning: Bool { true }

    /// How the operator would say `request` to apt: `apt install curl openssl`, `apt upgrade`.
    public static func summary(of request: PackageRequest) -> String {
        switch request {
        case .install(let packages): return (["apt install"] + packages).joined(separator: " ")
        case .upgrade: return "apt upgrade"
        case .fullUpgrade: return "apt full-upgrade"
        case .remove(let packages): return (["apt remove"] + packages).joined(separator: " ")
        case .undo(let run, _, _): return "apt undo \(run)"
        case .reinstall(_, let run?): return "apt repair \(run)"
        case .reinstall(let packages, nil): return (["apt reinstall"] + packages).joined(separator: " ")
        }
    }

    public func queuedLine(_ spec: PackageJob, name: String, job: Int?) -> String {
        "job \(job.map(String.init) ?? "?") queued: \(name) (\(Self.summary(of: spec.request)), as apt plans it)"
    }

    public func plan(_ spec: PackageJob) throws -> KindPlan {
        var spec = spec
        // A job that names no root (the board's rollout upgrade) is the engine's root's.
        if spec.aptConfig == nil, spec.chroot == nil { spec.aptConfig = defaultAPTConfig }
        let plan = try APTPlanner.plan(spec)
        if let confirm = spec.confirm, !plan.isEmpty {
            // Refused before anything runs when the revert could not be planned (as `--confirm` is).
            let refusals = ArmingRefusal.reasons(for: plan)
            guard refusals.isEmpty else {
                throw APTPlanError(.aptRefused, "not armed, nothing was run: its revert could not be planned: " + refusals.joined(separator: "; "))
            }
            guard let keeper = keepers?(spec) else {
                throw APTPlanError(.aptRefused, "not armed, nothing was run: this engine records no history, which the revert needs")
            }
            return .job(updates: plan.updates, driver: APTDriver(plan: plan, keeper: keeper),
                        summary: plan.summary + " · confirm within \(confirm.durationText)")
        }
        // An empty plan runs nothing: no keeper (which would prune and open the history) for it.
        let keeper = plan.updates.isEmpty ? nil : keepers?(spec)
        return .job(updates: plan.updates, driver: APTDriver(plan: plan, keeper: keeper), summary: plan.summary)
    }

    // MARK: - Manifest

    /// `{install: [a, b]}`, `{upgrade: true}`, `{full_upgrade: true}`, `{remove: [a]}` or
    /// `{reinstall: [a]}` (apt's own words: `a=1.0` pins the version), with an
    /// optional `apt_config` (must exist) and `chroot` (must be a folder), relative to the
    /// manifest's folder. Exactly one request.
    public func read(_ section: inout ManifestKindSection) -> PackageJob? {
        var requests: [PackageRequest] = []
        for key in ["install", "remove", "reinstall"] {
            guard let packages = section.strings(key) else { continue }
            guard !packages.isEmpty else {
                section.report("`\(key)` names no package", at: key)
                continue
            }
            switch key {
            case "install": requests.append(.install(packages))
            case "remove": requests.append(.remove(packages))
            default: requests.append(.reinstall(packages: packages, repairing: nil))
            }
        }
        for key in ["upgrade", "full_upgrade"] where section.boolean(key) == true {
            requests.append(key == "upgrade" ? .upgrade : .fullUpgrade)
        }
        var aptConfig: String?
        if let path = section.string("apt_config") {
            let resolved = section.resolved(path)
            if FileManager.default.fileExists(atPath: resolved) {
                aptConfig = resolved
            } else {
                section.report("apt_config `\(resolved)` does not exist", at: "apt_config")
            }
        }
        let chroot = section.folder("chroot")
        guard let request = section.oneRequest(of: requests, expecting: "install, upgrade, full_upgrade, remove or reinstall", in: "apt") else {
            return nil
        }
        return PackageJob(request: request, aptConfig: aptConfig, chroot: chroot)
    }

    // MARK: - Submission

    /// `{"install":[…]}`, `{"remove":[…]}`, `{"reinstall":[…]}` (a repair's with `"repairOf":RUN`),
    /// `{"upgrade":true}` or `{"full_upgrade":true}`, with an optional `"aptConfig"` and `"chroot"`.
    public func encode<Writer: KindSpecWriter>(_ spec: PackageJob, into apt: inout Writer) {
        switch spec.request {
        case .install(let packages): apt.add("install", strings: packages)
        case .remove(let packages): apt.add("remove", strings: packages)
        // Not a request of manifests or `submit` (`decode` refuses it): said for what it is.
        case .undo(let run, _, _): apt.add("undo", run)
        case .reinstall(let packages, let run):
            apt.add("reinstall", strings: packages)
            if let run { apt.add("repairOf", run) }
        case .upgrade: apt.add("upgrade", true)
        case .fullUpgrade: apt.add("full_upgrade", true)
        }
        if let aptConfig = spec.aptConfig { apt.add("aptConfig", aptConfig) }
        if let chroot = spec.chroot { apt.add("chroot", chroot) }
        if let confirm = spec.confirm {
            apt.addObject("confirm") { object in
                object.add("seconds", confirm.seconds)
                object.add("checks", strings: confirm.checks)
                if let folder = confirm.checksDirectory { object.add("checksDir", folder) }
                object.add("revertOnRegression", confirm.revertOnRegression)
            }
        }
    }

    public func decode<Reader: KindSpecReader>(_ apt: Reader) throws(Reader.Failure) -> PackageJob {
        let job = String(apt.context.dropLast(".apt".count))
        let named = ["install", "remove", "reinstall", "upgrade", "full_upgrade"].filter { apt.contains($0) }
        guard named.count <= 1 else {
            throw apt.refusal(
                            "\(job): `apt` asks for one of install, remove, reinstall, upgrade or full_upgrade; got \(named.joined(separator: " and "))")
        }
        let request: PackageRequest
        if apt.contains("install") {
            request = .install(try apt.strings("install"))
        } else if apt.contains("remove") {
            request = .remove(try apt.strings("remove"))
        } else if apt.contains("reinstall") {
            request = .reinstall(packages: try apt.strings("reinstall"), repairing: try apt.optionalInt("repairOf"))
        } else if try apt.bool("upgrade", default: false) {
            request = .upgrade
        } else if try apt.bool("full_upgrade", default: false) {
            request = .fullUpgrade
        } else {
            throw apt.refusal("\(job): `apt` needs install, remove, reinstall, upgrade or full_upgrade")
        }
        return PackageJob(request: request, aptConfig: try apt.optionalString("aptConfig"), chroot: try apt.optionalString("chroot"),
                          confirm: try Self.confirm(in: apt, job: job, request: request))
    }

    /// `"confirm":{"seconds":300,"checks":[…],"checksDir":"…","revertOnRegression":false}`:
    /// arms the job (Documentation/COMMIT-CONFIRMED.md); only upgrades, installs and removals.
    private static func confirm<Reader: KindSpecReader>(in apt: Reader, job: String, request: PackageRequest) throws(Reader.Failure) -> ConfirmRequest? {
        guard apt.contains("confirm") else { return nil }
        let confirm = try apt.object("confirm")
        switch request {
        case .install, .upgrade, .fullUpgrade, .remove: break
        case .reinstall, .undo: throw apt.refusal("\(job): `confirm` arms an install, upgrade, full_upgrade or remove, not this request")
        }
        guard let seconds = try confirm.optionalDouble("seconds"), seconds > 0 else {
            throw apt.refusal("\(job): `apt.confirm` needs `seconds`, more than 0")
        }
        let checks = try confirm.strings("checks")
        return ConfirmRequest(seconds: seconds, checks: checks, checksDirectory: try confirm.optionalString("checksDir"),
                              revertOnRegression: try confirm.bool("revertOnRegression", default: false))
    }
}
