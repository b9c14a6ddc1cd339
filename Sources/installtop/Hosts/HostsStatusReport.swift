import EngineWire
import TerminalUI

/// What `status --host/--hosts` prints: a section per host, or one JSON document.
enum HostsStatusReport {
    /// `== web1 ==` then the host's tables as local `status` prints them, or
    /// `unreachable: <why>`; hosts in the order they were selected, a blank line between.
    static func text(_ statuses: [HostStatus], sanitizer: TextSanitizer) -> String {
        statuses.map { status -> String in
            let heading = "== \(sanitizer.sanitize(status.host)) ==\n"
            switch status {
            case .reachable(_, let model): return heading + StatusReport.text(model, sanitizer: sanitizer)
            case .unreachable(_, let reason): return heading + "unreachable: \(sanitizer.sanitize(reason))\n"
            }
        }.joined(separator: "\n")
    }

    /// `{"hosts":[{"host":"web1","reachable":true,"jobs":[…]},{"host":"web2","reachable":false,"error":"…"}]}`:
    /// each reachable host's `jobs` exactly as local `status --json` gives them.
    static func json(_ statuses: [HostStatus]) -> String {
        let hosts = statuses.map { status -> String in
            var object = JSONObject()
            object.add("host", status.host)
            switch status {
            case .reachable(_, let model):
                object.add("reachable", true)
                object.addRaw("jobs", StatusReport.jobsJSON(model))
            case .unreachable(_, let reason):
                object.add("reachable", false)
                object.add("error", reason)
            }
            return object.json
        }
        return #"{"hosts":["# + hosts.joined(separator: ",") + "]}"
    }
}
