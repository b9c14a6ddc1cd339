import Foundation

/// Ansible's own account of a run, read from the default callback's output (without color):
/// the result of each task on each host it printed a line for, and the PLAY RECAP. It is the
/// oracle the differential tests hold installtop's board against.
public struct AnsibleTranscript: Sendable {
    /// Each task's result per host, for the tasks the output names (handlers left out).
    public private(set) var results: [AnsibleTaskKey: AnsibleTaskResult] = [:]
    /// The recap's line of each host Ansible came to.
    public private(set) var recap: [String: HostRecap] = [:]

    /// Reads `output`, the stdout of `ansible-playbook` with `ANSIBLE_NOCOLOR=1`.
    public init(parsing output: String) {
        var play = ""
        var task: String?
        var inRecap = false
        var lastFailure: AnsibleTaskKey?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if Self.header(line, "PLAY RECAP") != nil {
                inRecap = true
                continue
            }
            if let name = Self.header(line, "PLAY") {
                play = name
                task = nil
                inRecap = false
                continue
            }
            if let name = Self.header(line, "TASK") {
                task = name
                continue
            }
            if Self.header(line, "RUNNING HANDLER") != nil {
                task = nil
                continue
            }
            if inRecap {
                if let (host, counts) = Self.recapLine(line) { recap[host] = counts }
                continue
            }
            if line == "...ignoring", let key = lastFailure {
                results[key] = .ignored
                continue
            }
            guard let task, let (host, result) = Self.hostLine(line) else { continue }
            let key = AnsibleTaskKey(play: play, task: task, host: host)
            // A loop prints a line per item: a failing item fails the task, all skipped skip it.
            switch (results[key], result) {
            case (.failed?, _), (.unreachable?, _): break
            case (.ok?, .skipped): break
            default: results[key] = result
            }
            lastFailure = result == .failed ? key : nil
        }
    }

    /// The name in `KIND [name] ****`, or nil when the line is not such a header. A header
    /// without brackets (`PLAY RECAP ***`) gives an empty name.
    private static func header(_ line: String, _ kind: String) -> String? {
        guard line.hasPrefix(kind + " "), line.hasSuffix("*") else { return nil }
        let rest = line.dropFirst(kind.count + 1)
        if rest.hasPrefix("*") { return "" }
        guard rest.hasPrefix("["), let close = rest.range(of: "] *", options: .backwards) else { return nil }
        return String(rest[rest.index(after: rest.startIndex)..<close.lowerBound])
    }

    /// `changed: [web1]`, `ok: [web1 -> web2]`, `failed: [web2] (item=3) => {…}`,
    /// `fatal: [web1]: UNREACHABLE! => {…}`.
    private static func hostLine(_ line: String) -> (String, AnsibleTaskResult)? {
        let words: [(String, AnsibleTaskResult)] = [("ok", .ok), ("changed", .ok), ("skipping", .skipped), ("failed", .failed), ("fatal", .failed)]
        for (word, result) in words where line.hasPrefix(word + ": [") {
            let rest = line.dropFirst(word.count + 3)
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let host = String(rest[..<close]).components(separatedBy: " -> ")[0]
            return (host, result == .failed && line.contains("UNREACHABLE!") ? .unreachable : result)
        }
        return nil
    }

    /// `web1   : ok=4    changed=4    unreachable=0    failed=0 …`
    private static func recapLine(_ line: String) -> (String, HostRecap)? {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        var counts = HostRecap()
        for field in parts[1].split(separator: " ") {
            let pair = field.split(separator: "=")
            guard pair.count == 2, let value = Int(pair[1]) else { continue }
            switch pair[0] {
            case "ok": counts.ok = value
            case "changed": counts.changed = value
            case "unreachable": counts.unreachable = value
            case "failed": counts.failed = value
            case "skipped": counts.skipped = value
            case "rescued": counts.rescued = value
            case "ignored": counts.ignored = value
            default: break
            }
        }
        return (parts[0].trimmingCharacters(in: .whitespaces), counts)
    }
}
