import FleetTestSupport
import Foundation

/// installtop's account of a fleet run, from its `--json` events: each host's jobs (one per
/// play), each task's result, with the names Ansible prints, for `AnsibleDifferentialTests`.
struct BoardAccount {
    /// One task's completion on a host.
    struct Task: CustomStringConvertible {
        let play: String
        let title: String
        let result: String
        let mark: String?
        let reason: String?
        let startedAt: String?
        /// The update's messages while it ran and its last (its status: `changed`, `would
        /// change on web1`, …), in order; JSON coalesces some in between.
        let messages: [String]

        var status: String? { messages.last }

        /// What Ansible's own line for it says, in `AnsibleTaskResult`'s words: a rescued task
        /// printed as failed; nil for what Ansible prints no line for (ran elsewhere, jumped
        /// over, not started).
        var asAnsibleSays: AnsibleTaskResult? {
            switch (result, mark) {
            case ("failed", _) where failedElsewhere: return nil
            case ("failed", _): return (reason ?? "").hasPrefix("unreachable") ? .unreachable : .failed
            case ("succeeded", "rescued"?): return .failed
            case ("succeeded", "ignored"?): return .ignored
            case ("succeeded", "skipped"?): return isAnsiblesSkip ? .skipped : nil
            case ("succeeded", nil): return .ok
            default: return nil
            }
        }

        /// A run_once task that failed on another host and failed this one with it.
        var failedElsewhere: Bool {
            result == "failed" && (reason ?? "").hasPrefix("failed on ") && (reason ?? "").contains(" (run_once): ")
        }

        /// A skip Ansible reported (not one the plugin gave what Ansible went past).
        var isAnsiblesSkip: Bool {
            mark == "skipped" && !["not run:", "skipped on ", "no handler was notified"].contains { (reason ?? "").hasPrefix($0) }
        }

        var description: String {
            "\(result)\(mark.map { " (\($0))" } ?? "")\(reason.map { ": \($0)" } ?? "")"
        }
    }

    private var tasksByKey: [AnsibleTaskKey: Task] = [:]
    private var planned: Set<AnsibleTaskKey> = []
    private var hostOfJob: [Int: String] = [:]
    private var playOfJob: [Int: String] = [:]
    private var jobResult: [Int: String] = [:]

    init(_ events: [JSONEvent]) throws {
        var titles: [Int: [String]] = [:]
        var messages: [String: [String]] = [:]
        for event in events {
            guard let job = event.job else { continue }
            switch event.name {
            case "job.queued":
                // "web1" alone, or "web1 · Play" when the playbook has several plays.
                let name = event.string("name") ?? ""
                let parts = name.components(separatedBy: " · ")
                hostOfJob[job] = parts[0]
                playOfJob[job] = parts.count > 1 ? parts.dropFirst().joined(separator: " · ") : nil
                let updates = event.fields["updates"] as? [[String: Any]] ?? []
                titles[job] = updates.map { $0["title"] as? String ?? "" }
            case "progress":
                if let index = event.index, let message = event.string("message") { messages["\(job) \(index)", default: []].append(message) }
            case "update.completed":
                guard let host = hostOfJob[job], let index = event.index, let title = titles[job]?[index] else { continue }
                let play = playOfJob[job] ?? ""
                tasksByKey[AnsibleTaskKey(play: play, task: title, host: host)] = Task(
                    play: play, title: title, result: event.string("result") ?? "", mark: event.string("mark"),
                    reason: event.string("reason"), startedAt: event.string("startedAt"), messages: messages["\(job) \(index)"] ?? [])
            case "job.completed":
                jobResult[job] = event.string("result")
            default:
                break
            }
        }
        for (job, list) in titles {
            guard let host = hostOfJob[job] else { continue }
            for title in list { planned.insert(AnsibleTaskKey(play: playOfJob[job] ?? "", task: title, host: host)) }
        }
    }

    /// A task Ansible printed, by its names; a single play's name is not in installtop's job
    /// name, so it is looked up without it too.
    func task(_ key: AnsibleTaskKey) -> Task? {
        tasksByKey[key] ?? tasksByKey[AnsibleTaskKey(play: "", task: key.task, host: key.host)]
    }

    /// Whether installtop planned the task (an included task or a handler is not planned).
    func plans(_ key: AnsibleTaskKey) -> Bool {
        planned.contains(key) || planned.contains(AnsibleTaskKey(play: "", task: key.task, host: key.host))
    }

    func tasks(of host: String) -> [Task] {
        tasksByKey.filter { $0.key.host == host }.map(\.value)
    }

    /// The result of each of the host's jobs (one per play), by job number.
    func jobResults(of host: String) -> [(Int, String)] {
        hostOfJob.filter { $0.value == host }.keys.sorted().map { ($0, jobResult[$0] ?? "none") }
    }

    /// The host's jobs in order as (play name, result): empty names when the playbook has one play.
    func plays(of host: String) -> [(play: String, result: String)] {
        hostOfJob.filter { $0.value == host }.keys.sorted().map { (playOfJob[$0] ?? "", jobResult[$0] ?? "none") }
    }

    /// The host's counts as Ansible's recap counts them.
    func recap(of host: String) -> HostRecap {
        var counts = HostRecap()
        for task in tasks(of: host) {
            switch task.asAnsibleSays {
            case .failed?: if task.mark == "rescued" { counts.rescued += 1 } else { counts.failed += 1 }
            case .unreachable?: counts.unreachable += 1
            case .skipped?: counts.skipped += 1
            case .ignored?: counts.ignored += 1
            case .ok?, nil: break
            }
        }
        return counts
    }
}
