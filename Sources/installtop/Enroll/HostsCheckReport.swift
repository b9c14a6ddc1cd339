import EngineWire
import TerminalUI

/// What `hosts check` prints: a line per host (and a line per finding with its fix), or one
/// JSON document.
enum HostsCheckReport {
    /// `h1: ready: installtop 0.2.0, engine answering, hooks installed`, or per finding
    /// `h2: engine: no engine answers …` then `    fix: …`; `h3: unreachable: ssh's words`;
    /// hosts in the order selected, then a count.
    static func text(_ checks: [HostCheck], sanitizer: TextSanitizer) -> String {
        var lines: [String] = []
        for check in checks {
            let host = sanitizer.sanitize(check.host)
            switch check {
            case .unreachable(_, let reason):
                lines.append("\(host): unreachable: \(sanitizer.sanitize(reason))")
                lines.append("    fix: make `ssh \(host)` log in without a prompt (keys, known_hosts: BatchMode=yes)")
            case .checked(_, let facts, let findings) where findings.isEmpty:
                lines.append("\(host): ready: installtop \(sanitizer.sanitize(facts.binaryVersion ?? "")), engine answering on \(SystemdUnit.socketPath), hooks installed")
            case .checked(_, _, let findings):
                for finding in findings {
                    lines.append("\(host): \(finding.subject): \(sanitizer.sanitize(finding.text))")
                    lines.append("    fix: \(sanitizer.sanitize(finding.fix))")
                }
            }
        }
        let ready = checks.filter(\.isReady).count
        let unreachable = checks.filter { if case .unreachable = $0 { true } else { false } }.count
        let lacking = checks.count - ready - unreachable
        lines.append("\(counted(checks.count, "host")): \(ready) ready, \(lacking) lacking something, \(unreachable) unreachable")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"hosts":[{"host":"h1","reachable":true,"ready":true,"installtop":"0.2.0","engine":true,
    /// "hooks":true,"problems":[]},{"host":"h3","reachable":false,"error":"ssh: …"}]}`; each
    /// problem `{"subject","text","fix"}`; `installtop` is what the host's installtop says of
    /// its version, `null` when it has none.
    static func json(_ checks: [HostCheck]) -> String {
        HostsJSON.json(checks, name: \.host, unreachable: { if case .unreachable(_, let reason) = $0 { reason } else { nil } }) { check, object in
            guard case .checked(_, let facts, let findings) = check else { return }
            object.add("ready", findings.isEmpty)
            if let version = facts.binaryVersion { object.add("installtop", version) } else { object.addNull("installtop") }
            object.add("engine", facts.engineAnswers)
            object.add("hooks", facts.hooks)
            let problems = findings.map { finding -> String in
                var problem = JSONObject()
                problem.add("subject", finding.subject)
                problem.add("text", finding.text)
                problem.add("fix", finding.fix)
                return problem.json
            }
            object.addRaw("problems", "[" + problems.joined(separator: ",") + "]")
        }
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
