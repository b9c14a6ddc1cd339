import InstallEngine

/// The registered job kinds of a process (`EngineHost.kinds`): what the manifest reader, the
/// submission decoder and the engine's planner accept besides lists of commands.
public struct JobKinds: Sendable {
    /// In the order manifests' error messages list their keys.
    public let all: [any JobKind]

    /// No kind: only jobs of commands.
    public init(_ kinds: [any JobKind] = []) {
        all = kinds
    }

    /// See `JobKind.removeFiles()`: for each kind.
    public func removeFiles() {
        for kind in all { kind.removeFiles() }
    }

    /// The kind whose member `object` has (the first, in registration order), read; `nil` for
    /// a job of commands.
    /// - Throws: `badArgument` when the member is no object or its kind refuses it.
    func spec(in object: WireObject) throws(WireError) -> JobKindSpec? {
        for kind in all {
            guard let value = object.members[kind.key], !value.isNull else { continue }
            guard let members = value.objectValue else {
                throw WireError(.badArgument, "\(object.context): `\(kind.key)` must be an object")
            }
            return try kind.decodeSpec(WireObject(members, context: object.context + "." + kind.key))
        }
        return nil
    }
}
