import InstallEngine

/// Who runs an observed job, as `job.queued`'s `"observedBy"` member (beside `"observed":true`)
/// and as the relay's `"initiator"` in an `observe` command:
/// `{"pid":812,"start":93412,"program":"apt-get","commandLine":["apt-get","install","nginx"],"uid":0,"user":"root","terminal":"pts/1"}`,
/// in a job also `"admindir":"/var/lib/dpkg"` and `"dpkgLog":"/var/log/dpkg.log"` when known, and
/// `"installtopRun":"engine=812 run=33 tty=pts/1 job=…"` (`InstalltopRunMarker`) for another
/// installtop engine's apt job.
public enum ObservedInitiatorCoding {
    /// The initiator as a JSON object.
    public static func json(_ initiator: ObservedInitiator) -> String {
        var object = JSONObject()
        object.add("pid", initiator.pid)
        object.add("start", Int64(clamping: initiator.startTicks))
        object.add("program", initiator.program)
        object.add("commandLine", strings: initiator.commandLine)
        object.add("uid", Int64(initiator.uid))
        object.add("user", initiator.user)
        object.add("terminal", initiator.terminal)
        if let directory = initiator.administrativeDirectory { object.add("admindir", directory) }
        if let log = initiator.dpkgLog { object.add("dpkgLog", log) }
        if let marker = initiator.installtopRun { object.add("installtopRun", marker.text) }
        return object.json
    }

    /// The member `key` of `object`; `nil` when it is missing or null (every job installtop runs).
    /// - Throws: `badArgument` naming the member when it is not an object or lacks `pid` or `program`.
    public static func decode(from object: WireObject, key: String = "observedBy") throws(WireError) -> ObservedInitiator? {
        guard let value = object.members[key], !value.isNull else { return nil }
        guard let members = value.objectValue else { throw WireError(.badArgument, "\(object.context): `\(key)` must be an object") }
        let item = WireObject(members, context: "\(object.context).\(key)")
        return ObservedInitiator(
            pid: Int32(clamping: try item.int("pid")), startTicks: UInt64(clamping: try item.optionalInt("start") ?? 0),
            program: try item.string("program"), commandLine: item.members["commandLine"] == nil ? [] : try item.strings("commandLine"),
            uid: UInt32(clamping: try item.optionalInt("uid") ?? 0), user: try item.optionalString("user") ?? "",
            terminal: try item.optionalString("terminal") ?? "", administrativeDirectory: try item.optionalString("admindir"),
            dpkgLog: try item.optionalString("dpkgLog"),
            installtopRun: try item.optionalString("installtopRun").flatMap(InstalltopRunMarker.init(text:)))
    }
}
