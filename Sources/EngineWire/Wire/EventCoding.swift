#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Engine events as the JSON objects of Documentation/JSON-EVENTS.md, both ways: `--json` and
/// the daemon write them, daemon clients read them back.
///
/// `job.queued` carries more of each update than the contract's `index`, `id` and `title`
/// (`revision`, `reboot`, `impact`, `progress`, and `size` and `severity` when known) and the
/// job's `stopOnFailure`, so an attached monitor shows what a local one does; an update of a
/// package job also carries its `package` (name, action, versions; see `PackageChangeCoding`).
/// A job awaiting confirmation, run by a driver or declared by one says so
/// (`awaitsConfirmation`, `runByDriver`, `declaredByDriver`, only when true), and a skipped step's
/// `update.completed` has `"skipped":true`. `job.confirmed` says such a job was said yes to
/// (a reader that does not know it skips it, and sees the job start). The `update.started` of an update added to a
/// running job (rule 28: an observed job without a plan) carries it whole as `added`, in
/// `job.queued`'s form. Commands, environments and working directories stay
/// in the engine.
public enum EventCoding {
    /// One event as a line of JSON, without the newline.
    public static func encode(_ event: EngineEvent) -> String {
        String(decoding: bytes(event), as: UTF8.self)
    }

    /// One event as a line of JSON in UTF-8, with the newline.
    public static func line(_ event: EngineEvent) -> [UInt8] {
        var line = bytes(event)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// One event as JSON in UTF-8, without the newline.
    private static func bytes(_ event: EngineEvent) -> [UInt8] {
        var object = JSONObject()
        switch event.kind {
        case .jobQueued(let descriptor):
            object.add("event", "job.queued")
            object.add("job", descriptor.id)
            object.add("name", descriptor.name)
            object.add("operation", descriptor.operation.name)
            object.add("stopOnFailure", descriptor.stopOnFailure)
            // Only when true, so ordinary jobs are written as before.
            if descriptor.awaitsConfirmation { object.add("awaitsConfirmation", true) }
            if descriptor.runByDriver { object.add("runByDriver", true) }
            if descriptor.declaredByDriver { object.add("declaredByDriver", true) }
            if let initiator = descriptor.observedBy {
                object.add("observed", true)
                object.addRaw("observedBy", ObservedInitiatorCoding.json(initiator))
            }
            // An undo names the run it undoes (Documentation/UNDO.md); other jobs as before.
            if let undoOf = descriptor.undoOf { object.add("undoOf", undoOf) }
            // What an abort does to it, in its kind's words; only when its driver says.
            if let note = descriptor.stopNote {
                var stop = JSONObject()
                stop.add("sentence", note.sentence)
                stop.add("short", note.short)
                if let forcing = note.forcing { stop.add("forcing", forcing) }
                object.addRaw("stopNote", bytes: stop.bytes)
            }
            if let tool = descriptor.packageTool { object.add("packageTool", tool) }
            let updates = descriptor.updates.enumerated().map { index, update in QueuedUpdateCoding.bytes(update, index: index) }
            var list: [UInt8] = [UInt8(ascii: "[")]
            for (index, update) in updates.enumerated() {
                if index > 0 { list.append(UInt8(ascii: ",")) }
                list.append(contentsOf: update)
            }
            list.append(UInt8(ascii: "]"))
            object.addRaw("updates", bytes: list)
        case .jobStarted(let start):
            object.add("event", "job.started")
            object.add("job", start.job)
        case .updateStarted(let start):
            object.add("event", "update.started")
            object.add("job", start.job)
            object.add("index", start.index)
            object.add("id", start.updateID)
            // Only for an update added to a running job (rule 28), so other starts are written as before.
            if let added = start.added { object.addRaw("added", bytes: QueuedUpdateCoding.bytes(added, index: start.index)) }
        case .progress(let progress):
            object.add("event", "progress")
            object.add("job", progress.job)
            object.add("index", progress.index)
            object.add("updatePercent", orNull: progress.updatePercent)
            object.add("jobPercent", progress.jobPercent)
            object.add("message", orNull: progress.message)
            // Only while the job has one, so other jobs' progress is written as before.
            if let jobMessage = progress.jobMessage { object.add("jobMessage", jobMessage) }
        case .output(let output):
            object.add("event", "log")
            object.add("job", output.job)
            object.add("index", output.index)
            object.add("stream", output.stream.rawValue)
            object.add("line", output.line)
            // Only on the line that stands for lines a client did not get, so others are written as before.
            if let notShown = output.notShown { object.add("notShown", notShown) }
        case .updateCompleted(let completion):
            object.add("event", "update.completed")
            object.add("job", completion.job)
            object.add("index", completion.index)
            object.add("id", completion.updateID)
            object.add("resultCode", completion.result.resultCode.rawValue)
            object.add("result", completion.result.resultCode.name)
            object.add("hResult", completion.result.hResult.description)
            object.add("unmappedResultCode", completion.result.unmappedResultCode)
            object.add("rebootRequired", completion.result.rebootRequired)
            object.add("durationMs", Int(completion.result.duration?.wholeMilliseconds ?? 0))
            if let reason = completion.result.reason { object.add("reason", reason) }
            if let mark = completion.result.mark { object.add("mark", mark.rawValue) }
            if completion.result.skipped { object.add("skipped", true) }
            if !completion.result.reportedErrors.isEmpty { object.add("errors", strings: completion.result.reportedErrors) }
            if let startedAt = completion.result.startedAt { object.add("startedAt", date: startedAt) }
        case .jobConfirmed(let confirmation):
            object.add("event", "job.confirmed")
            object.add("job", confirmation.job)
        case .jobAbortRequested(let request):
            object.add("event", "job.abortRequested")
            object.add("job", request.job)
            if request.force { object.add("force", true) }
        case .jobCompleted(let completion):
            object.add("event", "job.completed")
            object.add("job", completion.job)
            object.add("resultCode", completion.result.resultCode.rawValue)
            object.add("result", completion.result.resultCode.name)
            object.add("hResult", completion.result.hResult.description)
            object.add("rebootRequired", completion.result.rebootRequired)
            if let advice = completion.result.restartAdvice { object.addRaw("restarts", RestartAdviceCoding.encode(advice)) }
            if completion.result.ignoredLines > 0 { object.add("ignoredLines", completion.result.ignoredLines) }
            if completion.result.protocolErrors > 0 { object.add("protocolErrors", completion.result.protocolErrors) }
            if completion.result.droppedLines > 0 { object.add("droppedLines", completion.result.droppedLines) }
        case .jobCleanedUp(let cleanUp):
            object.add("event", "job.cleanedUp")
            object.add("job", cleanUp.job)
        }
        object.add("time", date: event.time)
        return object.finished()
    }

    /// Reads the event named `name` (the object's `"event"`); `nil` for a name this version does
    /// not know. `job.completed` comes back without per-update results: a consumer's
    /// `QueueModel` already holds them from the `update.completed` events before it.
    /// - Throws: `badArgument` naming the member that is missing or of the wrong type.
    public static func decode(name: String, _ members: JSONMembers) throws(WireError) -> EngineEvent? {
        let object = WireObject(members, context: name)
        let time = try object.optionalString("time").flatMap(RFC3339.date(from:)) ?? Date()
        let kind: EngineEvent.Kind
        switch name {
        case "job.queued":
            let operation = try object.name("operation", UpdateOperation.named, expected: "install or uninstall")
            var updates: [Update] = []
            for item in try object.objects("updates") { updates.append(try QueuedUpdateCoding.decode(item)) }
            kind = .jobQueued(JobDescriptor(
                id: try object.int("job"), name: try object.string("name"), operation: operation, updates: updates,
                stopOnFailure: try object.bool("stopOnFailure", default: false),
                awaitsConfirmation: try object.bool("awaitsConfirmation", default: false),
                runByDriver: try object.bool("runByDriver", default: false),
                declaredByDriver: try object.bool("declaredByDriver", default: false),
                observedBy: try ObservedInitiatorCoding.decode(from: object),
                undoOf: try object.optionalInt("undoOf"), stopNote: try Self.stopNote(of: object),
                packageTool: try object.optionalString("packageTool")))
        case "job.started":
            kind = .jobStarted(job: try object.int("job"))
        case "update.started":
            var added: Update?
            if let value = members["added"], !value.isNull {
                guard let item = value.objectValue else { throw WireError(.badArgument, "update.started: `added` must be an object") }
                added = try QueuedUpdateCoding.decode(WireObject(item, context: "update.started.added"))
            }
            kind = .updateStarted(
                job: try object.int("job"), index: try object.int("index"), updateID: try object.string("id"), added: added)
        case "progress":
            kind = .progress(
                job: try object.int("job"), index: try object.int("index"), updatePercent: try object.optionalDouble("updatePercent"),
                jobPercent: try object.double("jobPercent"), message: try object.optionalString("message"),
                jobMessage: try object.optionalString("jobMessage"))
        case "log":
            let stream = try object.name("stream", StandardStream.init(rawValue:), expected: "stdout or stderr")
            kind = .output(UpdateOutput(
                job: try object.int("job"), index: try object.int("index"), stream: stream, line: try object.string("line"),
                notShown: try object.optionalInt("notShown")))
        case "update.completed":
            // Without `startedAt` (an update that never started, or an older writer) the
            // duration is unknown rather than derived.
            let startedAt = try object.optionalString("startedAt").flatMap(RFC3339.date(from:))
            var result = UpdateInstallationResult(
                resultCode: try resultCode(object), hResult: try hResult(object),
                rebootRequired: try object.bool("rebootRequired", default: false),
                unmappedResultCode: Int32(clamping: try object.optionalInt("unmappedResultCode") ?? 0),
                reason: try object.optionalString("reason"), reportedErrors: try object.strings("errors"),
                startedAt: startedAt, endedAt: time)
            // An older writer says only `skipped`; a mark this version does not know is none.
            let skipped = try object.bool("skipped", default: false)
            result.mark = try object.optionalString("mark").flatMap(UpdateResultMark.init(rawValue:)) ?? (skipped ? .skipped : nil)
            kind = .updateCompleted(job: try object.int("job"), index: try object.int("index"), updateID: try object.string("id"), result: result)
        case "job.confirmed":
            kind = .jobConfirmed(job: try object.int("job"))
        case "job.abortRequested":
            kind = .jobAbortRequested(job: try object.int("job"), force: try object.bool("force", default: false))
        case "job.completed":
            var result = InstallationResult(
                resultCode: try resultCode(object), hResult: try hResult(object),
                rebootRequired: try object.bool("rebootRequired", default: false), updateResults: [],
                restartAdvice: try object.members["restarts"]?.objectValue.map { members throws(WireError) in
                    try RestartAdviceCoding.decode(WireObject(members, context: "\(name).restarts"))
                })
            result.ignoredLines = try object.optionalInt("ignoredLines") ?? 0
            result.protocolErrors = try object.optionalInt("protocolErrors") ?? 0
            result.droppedLines = try object.optionalInt("droppedLines") ?? 0
            kind = .jobCompleted(job: try object.int("job"), result: result)
        case "job.cleanedUp":
            kind = .jobCleanedUp(job: try object.int("job"))
        default:
            return nil
        }
        return EngineEvent(time: time, kind: kind)
    }

    private static func resultCode(_ object: WireObject) throws(WireError) -> OperationResultCode {
        let raw = try object.int("resultCode")
        guard let code = OperationResultCode(rawValue: raw) else {
            throw WireError(.badArgument, "\(object.context): `resultCode` \(raw) is not a result code (0–5)")
        }
        return code
    }

    private static func hResult(_ object: WireObject) throws(WireError) -> HResult {
        guard let text = try object.optionalString("hResult") else { return .ok }
        guard let value = HResult(text: text) else {
            throw WireError(.badArgument, "\(object.context): `hResult` must look like 0x80240022; got \"\(text)\"")
        }
        return value
    }

    /// `job.queued`'s `stopNote` (`{"sentence":…,"short":…}`, and `"forcing"` when the kind
    /// says one); `nil` when it has none.
    private static func stopNote(of object: WireObject) throws(WireError) -> JobStopNote? {
        guard let value = object.members["stopNote"], !value.isNull else { return nil }
        guard let members = value.objectValue else { throw WireError(.badArgument, "\(object.context): `stopNote` must be an object") }
        let note = WireObject(members, context: "\(object.context).stopNote")
        return JobStopNote(sentence: try note.string("sentence"), short: try note.string("short"), forcing: try note.optionalString("forcing"))
    }
}
