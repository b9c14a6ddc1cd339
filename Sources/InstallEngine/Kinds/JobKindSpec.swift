/// "Kind K with its spec": what a job of a kind runs, carried by a manifest job and a submission
/// in place of a list of commands. Two are equal when their kinds' keys and specs are.
public struct JobKindSpec: Sendable, Hashable {
    /// The kind that reads, describes and plans `spec`.
    public let kind: any JobKind
    /// Always of `kind`'s `Spec` type: the initialiser takes only that.
    public let spec: any Sendable & Hashable

    /// `spec` for equality and hashing, made while its type is known.
    private let hashable: @Sendable () -> AnyHashable

    public init<Kind: JobKind>(kind: Kind, spec: Kind.Spec) {
        self.kind = kind
        self.spec = spec
        hashable = { AnyHashable(spec) }
    }

    /// The kind's key: `apt`, `ansible`, `driver`.
    public var key: String { kind.key }

    /// The spec when it is a `Spec`, for code that knows its kind (`spec(as: PackageJob.self)`).
    public func spec<Spec>(as type: Spec.Type) -> Spec? { spec as? Spec }

    /// See `JobKind.operation(of:)`.
    public var operation: UpdateOperation? { Self.operation(kind, spec) }

    /// See `JobKind.describe(_:)`.
    public var description: String { Self.describe(kind, spec) }

    /// See `JobKind.queuedLine(_:name:job:)`.
    public func queuedLine(name: String, job: Int?) -> String { Self.queuedLine(kind, spec, name: name, job: job) }

    /// See `JobKind.plan(_:)`.
    public func plan() throws -> KindPlan { try Self.plan(kind, spec) }

    /// See `JobKind.encode(_:into:)`.
    public func encode<Writer: KindSpecWriter>(into members: inout Writer) { Self.encode(kind, spec, into: &members) }

    public static func == (left: JobKindSpec, right: JobKindSpec) -> Bool {
        left.key == right.key && left.hashable() == right.hashable()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(hashable())
    }

    // The initialiser guarantees the casts: `spec` was made as `Kind.Spec`.
    private static func operation<Kind: JobKind>(_ kind: Kind, _ spec: any Sendable & Hashable) -> UpdateOperation? {
        kind.operation(of: spec as! Kind.Spec)
    }

    private static func describe<Kind: JobKind>(_ kind: Kind, _ spec: any Sendable & Hashable) -> String {
        kind.describe(spec as! Kind.Spec)
    }

    private static func queuedLine<Kind: JobKind>(_ kind: Kind, _ spec: any Sendable & Hashable, name: String, job: Int?) -> String {
        kind.queuedLine(spec as! Kind.Spec, name: name, job: job)
    }

    private static func encode<Kind: JobKind, Writer: KindSpecWriter>(_ kind: Kind, _ spec: any Sendable & Hashable, into members: inout Writer) {
        kind.encode(spec as! Kind.Spec, into: &members)
    }

    private static func plan<Kind: JobKind>(_ kind: Kind, _ spec: any Sendable & Hashable) throws -> KindPlan {
        try kind.plan(spec as! Kind.Spec)
    }
}
