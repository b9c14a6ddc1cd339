import InstallEngine

/// Jobs that are one dnf transaction (Documentation/DNF-JOBS.md): `dnf: {install: [curl]}` in a
/// manifest, planned by `DNFPlanner` (each package an update) and run by a `DNFDriver`, both
/// through installtop's helper on dnf's Python API, written once to a private folder that
/// `removeFiles()` deletes.
public struct DNFJobKind: JobKind {
    private let helperFolder: DNFHelperFolder
    private let keepers: (@Sendable (DNFJob) -> (any DNFVersionKeeping)?)?

    /// - Parameter keepers: the keeper of each job's replaced versions, for undo; `nil` keeps
    ///   none (validating, submitting to another engine).
    public init(helperFolder: DNFHelperFolder, keepers: (@Sendable (DNFJob) -> (any DNFVersionKeeping)?)? = nil) {
        self.helperFolder = helperFolder
        self.keepers = keepers
    }

    public var key: String { "dnf" }
    public var sectionKeys: [String] { ["install", "upgrade", "remove", "installroot", "releasever"] }
    public var sectionExpectation: String {
        "a dnf request ({install: [packages]}, {upgrade: true}, {upgrade: [packages]} or {remove: [packages]})"
    }
    public var updatesNote: String { "a dnf job's updates are the packages dnf plans" }

    public func operation(of spec: DNFJob) -> UpdateOperation? { spec.request.operation }
    public func describe(_ spec: DNFJob) -> String { spec.request.summary }

    public func validationPhrase(count: Int) -> String {
        (count == 1 ? "a dnf transaction" : "\(count) dnf transactions") + " (planned when it runs)"
    }

    public var declaresJobs: Bool { false }

    /// A package transaction is shown before it runs, here as in dnf.
    public var asksBeforeRunning: Bool { true }

    public func queuedLine(_ spec: DNFJob, name: String, job: Int?) -> String {
        "job \(job.map(String.init) ?? "?") queued: \(name) (\(spec.request.summary), as dnf plans it)"
    }

    public func plan(_ spec: DNFJob) throws -> KindPlan {
        let helper = try helperFolder.helper()
        let plan = try DNFPlanner.plan(spec, helper: helper)
        return .job(updates: plan.updates, driver: DNFDriver(plan: plan, helper: helper, keeper: keepers?(spec)), summary: plan.summary)
    }

    public func removeFiles() {
        helperFolder.remove()
    }

    // MARK: - Manifest

    /// `{install: [a, b]}`, `{upgrade: true}`, `{upgrade: [a]}` or `{remove: [a]}` (dnf's own
    /// words: `a-1.0-1` names a version), with an optional `installroot` (a folder, relative to
    /// the manifest's) and `releasever`. Exactly one request.
    public func read(_ section: inout ManifestKindSection) -> DNFJob? {
        var requests: [DNFRequest] = []
        for key in ["install", "remove"] {
            guard let packages = section.strings(key) else { continue }
            guard !packages.isEmpty else {
                section.report("`\(key)` names no package", at: key)
                continue
            }
            requests.append(key == "install" ? .install(packages) : .remove(packages))
        }
        let (everything, packages) = section.booleanOrList("upgrade")
        if let packages {
            requests.append(.upgrade(packages))
        } else if everything == true {
            requests.append(.upgrade([]))
        }
        let root = section.folder("installroot")
        let release = section.string("releasever")
        guard let request = section.oneRequest(of: requests, expecting: "install, upgrade or remove", in: "dnf") else { return nil }
        return DNFJob(request: request, installRoot: root, releaseVersion: release)
    }

    // MARK: - Submission

    /// `{"install":[…]}`, `{"upgrade":[…]}` (every package when empty), `{"remove":[…]}` or
    /// an undo's `{"undo":RUN,"restoring":[files],"removing":[name.arch]}`, with an optional
    /// `"installroot"` and `"releasever"`.
    public func encode<Writer: KindSpecWriter>(_ spec: DNFJob, into dnf: inout Writer) {
        switch spec.request {
        case .install(let packages): dnf.add("install", strings: packages)
        case .upgrade(let packages): dnf.add("upgrade", strings: packages)
        case .remove(let packages): dnf.add("remove", strings: packages)
        case .undo(let run, let restoring, let removing):
            dnf.add("undo", run)
            dnf.add("restoring", strings: restoring)
            dnf.add("removing", strings: removing)
        }
        if let root = spec.installRoot { dnf.add("installroot", root) }
        if let release = spec.releaseVersion { dnf.add("releasever", release) }
    }

    public func decode<Reader: KindSpecReader>(_ dnf: Reader) throws(Reader.Failure) -> DNFJob {
        let job = String(dnf.context.dropLast(".dnf".count))
        let named = ["install", "upgrade", "remove", "undo"].filter { dnf.contains($0) }
        guard named.count == 1 else {
            throw dnf.refusal(named.isEmpty ? "\(job): `dnf` needs install, upgrade or remove"
                                                         : "\(job): `dnf` asks for one of install, upgrade or remove; got \(named.joined(separator: " and "))")
        }
        let request: DNFRequest
        switch named[0] {
        case "install": request = .install(try dnf.strings("install"))
        case "upgrade": request = .upgrade(try dnf.strings("upgrade"))
        case "undo": request = .undo(run: try dnf.int("undo"), restoring: try dnf.strings("restoring"), removing: try dnf.strings("removing"))
        default: request = .remove(try dnf.strings("remove"))
        }
        return DNFJob(request: request, installRoot: try dnf.optionalString("installroot"), releaseVersion: try dnf.optionalString("releasever"))
    }
}
