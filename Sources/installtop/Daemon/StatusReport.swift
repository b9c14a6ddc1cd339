import EngineWire
import InstallEngine
import TerminalUI

/// What `installtop status` prints: a table of jobs and one of updates, or one JSON document.
enum StatusReport {
    /// Two tables, then the newest job's restart advice when something needs a restart or
    /// reboot (rule 32); child-supplied text sanitized.
    static func text(_ model: QueueModel, sanitizer: TextSanitizer) -> String {
        guard !model.jobs.isEmpty else { return "The queue is empty.\n" }
        var jobs: [[String]] = [["JOB", "STATE", "DONE", "PROGRESS", "OPERATION", "NAME"]]
        var updates: [[String]] = [["JOB", "#", "UPDATE", "STATE", "PROGRESS", "TIME", "TITLE"]]
        for job in model.jobs {
            jobs.append([
                String(job.id), state(of: job, words: true), job.counts.text, percent(job.percentShown),
                job.descriptor.operation.name, sanitizer.sanitize(job.descriptor.name),
            ])
            for (index, update) in job.updates.enumerated() {
                let code = update.result.resultCode
                var title = sanitizer.sanitize(update.update.title)
                if code == .inProgress, let message = update.message { title += " · " + sanitizer.sanitize(message) }
                updates.append([
                    String(job.id), String(index + 1), sanitizer.sanitize(update.update.id), code.word,
                    progress(of: update),
                    update.result.duration?.shortText ?? "", title,
                ])
            }
        }
        let restarts = RestartAdviceText.summary(of: model.jobs, sanitizer: sanitizer, width: nil) ?? ""
        // What a job ignored (malformed channel lines, protocol errors) is said below the tables.
        let ignored = model.jobs.compactMap { job in job.result?.ignoredLinesText.map { "job \(job.id): \($0)\n" } }
        return TextTable.render(jobs) + "\n" + TextTable.render(updates) + restarts + (ignored.isEmpty ? "" : "\n" + ignored.joined())
    }

    /// `{"jobs":[…]}`: per job its number, name, operation, state, percent, result (with
    /// `restarts`, as in `job.completed`, when it has one) and updates (id, title, state, percent, message, result fields).
    static func json(_ model: QueueModel) -> String {
        let jobs = model.jobs.map { job -> String in
            var object = JSONObject()
            object.add("job", job.id)
            object.add("name", job.descriptor.name)
            object.add("operation", job.descriptor.operation.name)
            object.add("state", state(of: job, words: false))
            object.add("percent", job.percentShown)
            object.add("abortRequested", job.abortRequested)
            if let result = job.result {
                object.add("result", result.resultCode.name)
                object.add("resultCode", result.resultCode.rawValue)
                object.add("hResult", result.hResult.description)
                object.add("rebootRequired", result.rebootRequired)
                if let advice = result.restartAdvice { object.addRaw("restarts", RestartAdviceCoding.encode(advice)) }
                if result.ignoredLines > 0 { object.add("ignoredLines", result.ignoredLines) }
                if result.protocolErrors > 0 { object.add("protocolErrors", result.protocolErrors) }
            } else {
                object.addNull("result")
            }
            let updates = job.updates.enumerated().map { index, update -> String in
                var item = JSONObject()
                item.add("index", index)
                item.add("id", update.update.id)
                item.add("title", update.update.title)
                item.add("state", update.result.resultCode.name)
                item.add("resultCode", update.result.resultCode.rawValue)
                if let percent = update.percent { item.add("percent", percent) } else { item.addNull("percent") }
                if let message = update.message { item.add("message", message) } else { item.addNull("message") }
                if update.result.resultCode.isFinal {
                    item.add("hResult", update.result.hResult.description)
                    item.add("rebootRequired", update.result.rebootRequired)
                    item.add("durationMs", Int(update.result.duration?.wholeMilliseconds ?? 0))
                    if let reason = update.result.reason { item.add("reason", reason) }
                }
                return item.json
            }
            object.addRaw("updates", "[" + updates.joined(separator: ",") + "]")
            return object.json
        }
        return #"{"jobs":["# + jobs.joined(separator: ",") + "]}"
    }

    /// queued, running, aborting, or the result: its word for people (`failed` when an update
    /// failed, `with errors`), its JSON name for programs (`succeededWithErrors`).
    private static func state(of job: JobState, words: Bool) -> String {
        switch job.phase {
        case .queued: return job.abortRequested ? "aborting" : "queued"
        case .running: return job.abortRequested ? "aborting" : "running"
        case .completed:
            guard let result = job.result else { return "completed" }
            return words ? (job.shownResultCode ?? result.resultCode).word : result.resultCode.name
        }
    }

    /// The running update's percent (… while indeterminate); how far a failed or aborted one got.
    private static func progress(of update: UpdateState) -> String {
        switch update.result.resultCode {
        case .inProgress: return update.percent.map(percent) ?? "…"
        case .failed, .aborted: return update.startedAt == nil ? "" : percent(update.percentReached)
        default: return ""
        }
    }

    private static func percent(_ value: Double) -> String {
        "\(Int(min(max(value, 0), 100).rounded(.down)))%"
    }
}
