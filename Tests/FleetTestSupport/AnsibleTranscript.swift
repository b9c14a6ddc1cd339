import Foundation

/// Ansible's own account of a run, read from the default callback's output (without color):
/// the result of each task on each host it printed a line for, and the PLAY RECAP. It is the
/// oracle the differential tests hold installtop's board against.
public struct AnsibleTranscript: Sendable {
    /// Each task's result per host, for the tasks the output names (handlers left out).
    public private(set) var results: [AnsibleTaskKey: AnsibleTaskResult] = [:]
    /// The recap's line of each host Ansible came to.
    public private(set) var recap: [String: HostRecap] = [:]
    /// A loop's item labels per host, in the order Ansible printed them (`(item=LABEL)`).
    public private(set) var items: [AnsibleTaskKey: [String]] = [:]
    /// The host a task ran on for another, as printed in `[web2 -> web1]`.
    public private(set) var delegates: [AnsibleTaskKey: String] = [:]
    /// The tasks with a `changed:` line on the host (an item's is the task's).
    public private(set) var changed: Set<AnsibleTaskKey> = []
    /// The tasks whose banner says `[CHECK MODE]` (with `check_mode_markers` on), by play and
    /// task name (host left empty).
    public private(set) var checkMode: Set<AnsibleTaskKey> = []
    /// How many times Ansible polled an async task on a host (`ASYNC POLL on web1: …`).
    public private(set) var polls: [AnsibleTaskKey: Int] = [:]
    /// The plays (by name) each host ran a handler in.
    public private(set) var handlersRan: [String: Set<String>] = [:]

    /// Reads `output`, the stdout of `ansible-playbook` with `ANSIBLE_NOCOLOR=1`.
    public init(parsing output: String) {
        var play = ""
        var task: String?
        var handler = false
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
                if line.contains(Self.checkModeMarker + "] *") { checkMode.insert(AnsibleTaskKey(play: play, task: name, host: "")) }
                handler = false
                continue
            }
            if Self.header(line, "RUNNING HANDLER") != nil {
                task = nil
                handler = true
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
            if line.hasPrefix("ASYNC POLL on "), let task, let colon = line.firstIndex(of: ":") {
                let host = String(line[line.index(line.startIndex, offsetBy: 14)..<colon])
                polls[AnsibleTaskKey(play: play, task: task, host: host), default: 0] += 1
                continue
            }
            if handler, let (host, result) = Self.hostLine(line), result != .skipped {
                handlersRan[play, default: []].insert(host)
                continue
            }
            guard let task, let (host, result) = Self.hostLine(line) else { continue }
            let key = AnsibleTaskKey(play: play, task: task, host: host)
            if let label = Self.itemLabel(line) { items[key, default: []].append(label) }
            if let delegate = Self.delegate(line) { delegates[key] = delegate }
            if line.hasPrefix("changed: [") { changed.insert(key) }
            // A loop prints a line per item: a failing item fails the task, all skipped skip it.
            switch (results[key], result) {
            case (.failed?, _), (.unreachable?, _): break
            case (.ok?, .skipped): break
            default: results[key] = result
            }
            lastFailure = result == .failed || result == .unreachable ? key : nil
        }
    }

    /// What `check_mode_markers` adds to a banner's name, `[name] [CHECK MODE] ***`.
    private static let checkModeMarker = "] [CHECK MODE"

    /// The name in `KIND [name] ****`, or nil when the line is not such a header. A header
    /// without brackets (`PLAY RECAP ***`) gives an empty name.
    private static func header(_ line: String, _ kind: String) -> String? {
        guard line.hasPrefix(kind + " "), line.hasSuffix("*") else { return nil }
        let rest = line.dropFirst(kind.count + 1)
        if rest.hasPrefix("*") { return "" }
        guard rest.hasPrefix("["), let close = rest.range(of: "] *", options: .backwards) else { return nil }
        let name = String(rest[rest.index(after: rest.startIndex)..<close.lowerBound])
        return name.hasSuffix(checkModeMarker) ? String(name.dropLast(checkModeMarker.count)) : name
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

    /// The label of `ok: [web1] => (item=LABEL)` or `failed: [web1] (item=LABEL) => {…}`.
    private static func itemLabel(_ line: String) -> String? {
        guard let open = line.range(of: "(item=") else { return nil }
        let rest = line[open.upperBound...]
        if let end = rest.range(of: ") => ") { return String(rest[..<end.lowerBound]) }
        guard let end = rest.lastIndex(of: ")") else { return nil }
        return String(rest[..<end])
    }

    /// `web1` of `ok: [web2 -> web1]` (or of `[web2 -> web1(10.0.0.1)]`).
    private static func delegate(_ line: String) -> String? {
        guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"), open < close else { return nil }
        let parts = line[line.index(after: open)..<close].components(separatedBy: " -> ")
        guard parts.count == 2 else { return nil }
        return parts[1].components(separatedBy: "(")[0]
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
