import EngineWire
import InstallEngine
import TerminalUI

/// What `installtop status` prints: a table of jobs and one of updates, or one JSON document.
enum StatusReport {
    /// Two tables; child-supplied text sanitized.
    static func text(_ model: QueueModel, sanitizer: TextSanitizer) -> String {
        guard !model.jobs.isEmpty else { return "The queue is empty.\n" }
        var jobs: [[String]] = [["JOB", "STATE", "DONE", "PROGRESS", "OPERATION", "NAME"]]
        var updates: [[String]] = [["JOB", "#", "UPDATE", "STATE", "PROGRESS", "TIME", "TITLE"]]
        for job in model.jobs {
            jobs.append([
                String(job.id), state(of: job), "\(job.finishedCount)/\(job.updates.count)", percent(job.percent),
                job.descriptor.operation.name, sanitizer.sanitize(job.descriptor.name),
            ])
            for (index, update) in job.updates.enumerated() {
                let code = update.result.resultCode
                var title = sanitizer.sanitize(update.update.title)
                if code == .inProgress, let message = update.message { title += " · " + sanitizer.sanitize(message) }
                updates.append([
                    String(job.id), String(index + 1), sanitizer.sanitize(update.update.id), word(for: code),
                    code == .inProgress ? update.percent.map(percent) ?? "…" : "",
                    update.result.duration?.shortText ?? "", title,
                ])
            }
        }
        return TextTable.render(jobs) + "\n" + TextTable.render(updates)
    }

    /// `{"jobs":[…]}`: per job its number, name, operation, state, percent, result and
    /// updates (id, title, state, percent, message, result fields).
    static func json(_ model: QueueModel) -> String {
        let jobs = model.jobs.map { job -> String in
            var object = JSONObject()
            object.add("job", job.id)
            object.add("name", job.descriptor.name)
            object.add("operation", job.descriptor.operation.name)
            object.add("state", state(of: job))
            object.add("percent", job.percent)
            object.add("abortRequested", job.abortRequested)
            if let result = job.result {
                object.add("result", result.resultCode.name)
                object.add("resultCode", result.resultCode.rawValue)
                object.add("hResult", result.hResult.description)
                object.add("rebootRequired", result.rebootRequired)
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

    /// queued, running, aborting, or the result's name.
    private static func state(of job: JobState) -> String {
        switch job.phase {
        case .queued: return job.abortRequested ? "aborting" : "queued"
        case .running: return job.abortRequested ? "aborting" : "running"
        case .completed: return job.result?.resultCode.name ?? "completed"
        }
    }

    /// `queued` and `running` read better than WUA's notStarted and inProgress in a table.
    private static func word(for code: OperationResultCode) -> String {
        switch code {
        case .notStarted: return "queued"
        case .inProgress: return "running"
        default: return code.name
        }
    }

    private static func percent(_ value: Double) -> String {
        "\(Int(min(max(value, 0), 100).rounded(.down)))%"
    }
}
