import InstallEngine

/// A `JobKind` as a submission carries it: its spec as the members of one JSON object under
/// the kind's key (`"apt":{"install":["curl"]}`), so `submit` sends the job and the engine
/// plans it.
public protocol WireJobKind: JobKind {
    /// Adds `spec`'s members to `object`, the kind's member of the job.
    func encode(_ spec: Spec, into object: inout JSONObject)
    /// Reads what `encode` wrote.
    /// - Throws: `badArgument` naming the member at fault.
    func decode(_ object: WireObject) throws(WireError) -> Spec
}

extension WireJobKind {
    /// `encode` for a spec of this kind; `JobKindSpec` guarantees its type.
    func encodeSpec(_ spec: any Sendable & Hashable) -> String {
        var object = JSONObject()
        encode(spec as! Spec, into: &object)
        return object.json
    }

    /// `decode`, wrapped for a job.
    func decodeSpec(_ object: WireObject) throws(WireError) -> JobKindSpec {
        JobKindSpec(kind: self, spec: try decode(object))
    }
}
