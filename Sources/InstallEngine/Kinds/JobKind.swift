/// A kind of job other than a list of commands (apt, Ansible, a program that speaks the driver
/// protocol): its manifest section, its member in a submission, how it reads in messages, and
/// its planner. A kind is one folder and one line in the registry (`EngineHost.kinds`); nothing
/// else in installtop names it. The engine knows no JSON: a kind writes and reads its
/// submission member through `KindSpecWriter` and `KindSpecReader`, which EngineWire's JSON
/// object and wire object are.
public protocol JobKind: Sendable {
    /// What the kind's section holds once read and checked.
    associatedtype Spec: Sendable & Hashable

    /// The key of its section in a manifest job and of its member in a submission: `apt`.
    var key: String { get }
    /// The keys its section accepts, in the order the documentation shows them (which is the
    /// order an `unknown key` message lists them).
    var sectionKeys: [String] { get }
    /// What the section should have been, for `expected …; got a list`.
    var sectionExpectation: String { get }
    /// Why a job of this kind has no `updates` of its own, said after "job `x` has both `apt`
    /// and `updates`; ".
    var updatesNote: String { get }

    /// Reads the section; every problem is reported on `section` at its line and column.
    /// - Returns: `nil` when something was reported.
    func read(_ section: inout ManifestKindSection) -> Spec?
    /// Writes `spec` as the members of the kind's object in a submission
    /// (`"apt":{"install":["curl"]}`), so `submit` sends the job and the engine plans it.
    func encode<Writer: KindSpecWriter>(_ spec: Spec, into members: inout Writer)
    /// Reads what `encode` wrote.
    /// - Throws: the reader's error naming the member at fault, or the kind's refusal made
    ///   with `KindSpecReader.refusal(_:)`.
    func decode<Reader: KindSpecReader>(_ members: Reader) throws(Reader.Failure) -> Spec
    /// The operation of the job `spec` makes (an apt removal uninstalls); `nil` when the jobs
    /// its driver declares say it themselves, and the manifest's `operation` is not read.
    func operation(of spec: Spec) -> UpdateOperation?
    /// How the job reads in messages (`apt install curl`, `ansible`), before `: nothing to do`.
    func describe(_ spec: Spec) -> String
    /// What `validate` says for `count` (1 or more) jobs of this kind, whose updates are known
    /// only when they run: `an apt transaction (planned when it runs)`.
    func validationPhrase(count: Int) -> String
    /// Whether its plan is a session driver that declares the jobs as it runs (rule 27): such
    /// a job gets no job number when it is queued.
    var declaresJobs: Bool { get }
    /// What `submit` prints once the job is queued, `name` already sanitized: `job 3 queued:
    /// NAME (apt install curl, as apt plans it)`; `job` is `nil` when `declaresJobs`.
    func queuedLine(_ spec: Spec, name: String, job: Int?) -> String
    /// Whether a job of this kind that reaches an engine through `submit` (or the board) waits
    /// for a `confirm` with the plan its engine made, unless submitted with `yes`: a package
    /// job changes a machine in ways the operator must see first (Documentation/MANY-HOSTS.md "Fleet
    /// patching"). False by default.
    var asksBeforeRunning: Bool { get }
    /// What runs `spec`: its updates and driver, or a session driver that declares its jobs.
    /// A `.job` without updates means there is nothing to do.
    /// - Throws: the tool's refusal in its own words (unknown package, playbook not found).
    func plan(_ spec: Spec) throws -> KindPlan
    /// Deletes what the kind wrote for its runs (a plugin folder); called when no run of this
    /// process can still start. Does nothing by default.
    func removeFiles()
}

extension JobKind {
    public func removeFiles() {}

    public var asksBeforeRunning: Bool { false }

    /// `read` with the result wrapped for a job.
    func readSpec(_ section: inout ManifestKindSection) -> JobKindSpec? {
        read(&section).map { JobKindSpec(kind: self, spec: $0) }
    }

    /// `decode` with the result wrapped for a job.
    public func decodeSpec<Reader: KindSpecReader>(_ members: Reader) throws(Reader.Failure) -> JobKindSpec {
        JobKindSpec(kind: self, spec: try decode(members))
    }
}
