import EngineWire

/// `{"hosts":[…]}`, what every report over several hosts prints with `--json` (`status`,
/// `pending`, `hosts check`): one object per host, in the order they were selected, each
/// `{"host":…,"reachable":false,"error":…}` for a host that could not be reached, or
/// `{"host":…,"reachable":true,…}` with what the report adds for one that could.
enum HostsJSON {
    /// - Parameters:
    ///   - name: the host's name.
    ///   - unreachable: why the host could not be reached (ssh's words); `nil` for a host that was.
    ///   - reached: adds a reached host's fields after `reachable`.
    static func json<Host>(_ hosts: [Host], name: (Host) -> String, unreachable: (Host) -> String?,
                           reached: (Host, inout JSONObject) -> Void) -> String {
        let objects = hosts.map { host -> String in
            var object = JSONObject()
            object.add("host", name(host))
            if let reason = unreachable(host) {
                object.add("reachable", false)
                object.add("error", reason)
            } else {
                object.add("reachable", true)
                reached(host, &object)
            }
            return object.json
        }
        return #"{"hosts":["# + objects.joined(separator: ",") + "]}"
    }
}
