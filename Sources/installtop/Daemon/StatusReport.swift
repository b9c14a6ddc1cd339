import EngineWire
import InstallEngine
import InstallHistory
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
        // Who runs an observed job, and what a job ignored (malformed channel lines, protocol
        // errors), are said below the tables.
        let notes = model.jobs.flatMap { job -> [String] in
            var notes: [String] = []
            if let initiator = job.descriptor.observedBy { notes.append("job \(job.id): \(observedText(initiator, sanitizer: sanitizer))\n") }
            if let ignored = job.result?.ignoredLinesText { notes.append("job \(job.id): \(ignored)\n") }
            return notes
        }
        return TextTable.render(jobs) + "\n" + TextTable.render(updates) + restarts + (notes.isEmpty ? "" : "\n" + notes.joined())
    }

    /// `{"jobs":[…]}`: per job its number, name, operation, state, percent, `awaitsConfirmation`
    /// while a job queued to wait for a yes has not started, `observed` and
    /// `observedBy` for an observed job (as in `job.queued`), result (with
    /// `restarts`, as in `job.completed`, when it has one) and updates (id, title, state, percent, message, result fields).
    /// With `armed` windows (the commit-confirmed runs open in the engine's history), also
    /// `"armed":[…]` (`ArmedRunsInEngineHistory.jsonArray`); without, the document is as before.
    static func json(_ model: QueueModel, armed: [ConfirmWindow] = []) -> String {
        #"{"jobs":"# + jobsJSON(model) + (armed.isEmpty ? "" : #","armed":"# + ArmedRunsInEngineHistory.jsonArray(armed)) + "}"
    }

    /// The `jobs` array of `json(_:)` alone: what `status --host --json` gives each host.
    static func jobsJSON(_ model: QueueModel) -> String {
        let jobs = model.jobs.map { job -> String in
            var object = JSONObject()
            object.add("job", job.id)
            object.add("name", job.descriptor.name)
            object.add("operation", job.descriptor.operation.name)
            object.add("state", state(of: job, words: false))
            object.add("percent", job.percentShown)
            object.add("abortRequested", job.abortRequested)
            // As in `job.queued`: it was queued to wait for a yes (`installtop confirm`).
            if job.descriptor.awaitsConfirmation && job.phase == .queued { object.add("awaitsConfirmation", true) }
            // As in `job.queued`: only observed jobs carry them.
            if let initiator = job.descriptor.observedBy {
                object.add("observed", true)
                object.addRaw("observedBy", ObservedInitiatorCoding.json(initiator))
            }
            if let result = job.result {
                object.add("result", result.resultCode.name)
                object.add("resultCode", result.resultCode.rawValue)
                object.add("hResult", result.hResult.description)
                object.add("rebootRequired", result.rebootRequired)
                if let advice = result.restartAdvice { object.addRaw("restarts", RestartAdviceCoding.encode(advice)) }
                if result.ignoredLines > 0 { object.add("ignoredLines", result.ignoredLines) }
                if result.protocolErrors > 0 { object.add("protocolErrors", result.protocolErrors) }
                if result.droppedLines > 0 { object.add("droppedLines", result.droppedLines) }
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
                item.add("percent", orNull: update.percent)
                item.add("message", orNull: update.message)
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
        return "[" + jobs.joined(separator: ",") + "]"
    }

    /// `observed: apt-get (pid 812) run by root on pts/1, not by installtop: it cannot be aborted here`.
    static func observedText(_ initiator: ObservedInitiator, sanitizer: TextSanitizer) -> String {
        let terminal = initiator.terminal.isEmpty ? "" : " on \(sanitizer.sanitize(initiator.terminal))"
        let user = initiator.user.isEmpty ? "uid \(initiator.uid)" : sanitizer.sanitize(initiator.user)
        return "observed: \(sanitizer.sanitize(initiator.programName)) (pid \(initiator.pid)) run by \(user)\(terminal), "
            + "not by installtop: it cannot be aborted here"
    }

    /// queued, running, aborting, or the result: its word for people (`failed` when an update
    /// failed, `with errors`; `awaiting yes` for a queued job held for a confirmation, as the
    /// board says it), its JSON name for programs (`succeededWithErrors`; `queued`, with
    /// `awaitsConfirmation` beside it).
    private static func state(of job: JobState, words: Bool) -> String {
        switch job.phase {
        case .queued where words && job.descriptor.awaitsConfirmation && !job.abortRequested: return "awaiting yes"
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
