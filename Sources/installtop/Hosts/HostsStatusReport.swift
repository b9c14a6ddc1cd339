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
            case .reachable(let host, let model, let armed):
                return heading + StatusReport.text(model, sanitizer: sanitizer) + armedText(armed, host: host, sanitizer: sanitizer)
            case .unreachable(_, let reason): return heading + "unreachable: \(sanitizer.sanitize(reason))\n"
            }
        }.joined(separator: "\n")
    }

    /// `Armed runs …` and a line per open run of `host`, after its tables; empty for none.
    static func armedText(_ runs: [ArmedRun], host: String, sanitizer: TextSanitizer) -> String {
        guard !runs.isEmpty else { return "" }
        let name = sanitizer.sanitize(host)
        return "\nArmed runs (commit-confirmed; the host's engine reverts each at its deadline):\n" + runs.map { run in
            let deadline = RFC3339.string(from: run.deadline)
            switch run.state {
            case .reverting: return "  run \(run.run): reverting (\(sanitizer.sanitize(run.reason ?? "")))\n"
            default:
                return "  run \(run.run): armed: confirm by \(deadline) (installtop confirm --host \(name) --run \(run.run)), or it is reverted"
                    + (run.regressions.isEmpty ? "" : "; regressed: " + sanitizer.sanitize(run.regressions.joined(separator: "; "))) + "\n"
            }
        }.joined()
    }

    /// `{"hosts":[{"host":"web1","reachable":true,"jobs":[…]},{"host":"web2","reachable":false,"error":"…"}]}`:
    /// each reachable host's `jobs` exactly as local `status --json` gives them.
    static func json(_ statuses: [HostStatus]) -> String {
        HostsJSON.json(statuses, name: \.host, unreachable: { if case .unreachable(_, let reason) = $0 { reason } else { nil } }) { status, object in
            guard case .reachable(_, let model, let armed) = status else { return }
            object.addRaw("jobs", StatusReport.jobsJSON(model))
            // As local `status --json` adds it: only when there are any.
            if !armed.isEmpty {
                object.add("armed", .array(armed.map { run in
                    .object(["run": .integer(run.run), "state": .string(run.state.rawValue),
                             "deadline": .string(RFC3339.string(from: run.deadline)), "reason": run.reason.map(JSONValue.string) ?? .null])
                }))
            }
        }
    }
}
