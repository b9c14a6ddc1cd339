import InstallEngine

/// What a client asks of the engine: one JSON object per line, `{"command":"abort","job":3}`,
/// with an optional integer `"id"` that the reply echoes.
public enum WireCommand: Sendable, Hashable {
    /// Start receiving events: the snapshot (`snapshot.begin`, the queue's replay,
    /// `snapshot.end`), then every live event. Only subscribed connections get events.
    case subscribe
    /// Queue jobs; the reply's `"jobs"` lists their numbers. All are validated first: when one
    /// is refused, none is queued.
    case submit([JobSubmission])
    /// `abort`, `abortAll`, `cleanup` (its reply comes once the job is removed) and `retry`
    /// (its reply's `"job"` is the new job's number).
    case job(JobCommand)
    /// The newest `limit` rows (at most 10,000) of the install history, in the reply's
    /// `"entries"`: each as `installtop history --json` prints it, with an empty `outputTail`.
    case history(limit: Int)
    /// Median past durations of these updates, in the reply's `"durations"` (seconds by id).
    case durations(updateIDs: [String])
    /// The newest `limit` job runs (at most 10,000) of the history, in the reply's `"runs"`:
    /// each as `installtop history --jobs --json` prints it.
    case runs(limit: Int)
    /// Plan the undo of job run `run` and queue it awaiting confirmation (Documentation/UNDO.md);
    /// the reply's `"job"` is its number, or the refusal says why nothing was queued.
    case undo(run: Int)
    /// What an apt or dpkg hook saw (installtop-relay, rule 28); never answered.
    case observe(ObservedReport)
    /// Who the engine is: its reply's members are an `EngineIdentity` (pid, history, apt root).
    case about
    /// The pending snapshot of the engine's root (`PendingState`'s fields in the reply);
    /// `PendingRequest` may ask for a new one and wait for it.
    case pending(PendingRequest)
    /// Queue a refresh job (`apt-get update` in the engine's root, then a snapshot); the
    /// reply's `"job"` is its number.
    case refresh
    /// Keep commit-confirmed run `run` (`installtop confirm --run`), or with `extend` move its
    /// deadline that many seconds from now; the reply's `"said"` says what was done.
    case confirmRun(run: Int, extend: Double?)
    /// Run armed run `run`'s checks again now (those its window recorded), compare them with
    /// the checks before its job and record them in its window, as after the job: a regression
    /// is added to the window's, which reverts the run at once when it asked for that. The
    /// reply is a `ChecksRunAgain`; a run not armed is refused (`notArmed`), nothing run.
    case checkRun(run: Int)

    /// Whether it changes the queue (or, `observe`, makes jobs): what a watcher may not ask.
    /// Subscribing and reading the history or durations only read.
    public var acts: Bool {
        switch self {
        case .subscribe, .history, .durations, .runs, .about, .pending: return false
        case .submit, .job, .observe, .undo, .refresh, .confirmRun, .checkRun: return true
        }
    }

    /// The name in `"command"` (and in the reply's `"reply"`).
    public var name: String {
        switch self {
        case .subscribe: return "subscribe"
        case .submit: return "submit"
        case .job(.abort): return "abort"
        case .job(.abortAll): return "abortAll"
        case .job(.cleanUp): return "cleanup"
        case .job(.retry): return "retry"
        case .job(.confirm): return "confirm"
        case .job(.decline): return "decline"
        case .history: return "history"
        case .durations: return "durations"
        case .runs: return "runs"
        case .undo: return "undo"
        case .observe: return "observe"
        case .about: return "about"
        case .pending: return "pending"
        case .refresh: return "refresh"
        case .confirmRun: return "confirmRun"
        case .checkRun: return "checkRun"
        }
    }

    /// The command as one line of JSON, without the newline.
    public func line(requestID: Int? = nil) -> String {
        var object = JSONObject()
        object.add("command", name)
        if let requestID { object.add("id", requestID) }
        switch self {
        case .subscribe, .about:
            break
        case .submit(let jobs):
            object.addRaw("jobs", "[" + jobs.map(\.json).joined(separator: ",") + "]")
        case .job(.abort(let job, let force)):
            object.add("job", job)
            object.add("force", force)
        case .job(.abortAll(let force)):
            object.add("force", force)
        case .job(.cleanUp(let job)), .job(.retry(let job)), .job(.confirm(let job)), .job(.decline(let job)):
            object.add("job", job)
        case .history(let limit), .runs(let limit):
            object.add("limit", limit)
        case .undo(let run), .checkRun(let run):
            object.add("run", run)
        case .durations(let updateIDs):
            object.add("updates", strings: updateIDs)
        case .observe(let report):
            report.add(to: &object)
        case .pending(let request):
            request.add(to: &object)
        case .refresh:
            break
        case .confirmRun(let run, let extend):
            object.add("run", run)
            if let extend { object.add("extend", extend) }
        }
        return object.json
    }

    /// Reads a command object; submitted jobs may be of `kinds`.
    /// - Throws: `unknownCommand`, or `badArgument` naming the member at fault.
    public init(_ members: JSONMembers, kinds: JobKinds = JobKinds()) throws(WireError) {
        guard let name = members["command"]?.stringValue else {
            throw WireError(.badArgument, "a command needs a `command` string")
        }
        let object = WireObject(members, context: name)
        switch name {
        case "subscribe":
            self = .subscribe
        case "submit":
            var jobs: [JobSubmission] = []
            for job in try object.objects("jobs") { jobs.append(try JobSubmission(job, kinds: kinds)) }
            self = .submit(jobs)
        case "abort":
            self = .job(.abort(job: try object.int("job"), force: try object.bool("force", default: false)))
        case "abortAll":
            self = .job(.abortAll(force: try object.bool("force", default: false)))
        case "cleanup":
            self = .job(.cleanUp(job: try object.int("job")))
        case "retry":
            self = .job(.retry(job: try object.int("job")))
        case "confirm":
            self = .job(.confirm(job: try object.int("job")))
        case "decline":
            self = .job(.decline(job: try object.int("job")))
        case "history":
            let limit = try object.optionalInt("limit") ?? 50
            guard limit >= 0 else { throw WireError(.badArgument, "history: `limit` must be 0 or more") }
            self = .history(limit: min(limit, 10_000))
        case "durations":
            self = .durations(updateIDs: try object.strings("updates"))
        case "runs":
            let limit = try object.optionalInt("limit") ?? 50
            guard limit >= 0 else { throw WireError(.badArgument, "runs: `limit` must be 0 or more") }
            self = .runs(limit: min(limit, 10_000))
        case "undo":
            self = .undo(run: try object.int("run"))
        case "observe":
            self = .observe(try ObservedReport(object))
        case "about":
            self = .about
        case "pending":
            self = .pending(try PendingRequest(object))
        case "refresh":
            self = .refresh
        case "confirmRun":
            let extend = try object.optionalDouble("extend")
            if let extend, !(extend > 0) { throw WireError(.badArgument, "confirmRun: `extend` must be seconds more than 0") }
            self = .confirmRun(run: try object.int("run"), extend: extend)
        case "checkRun":
            self = .checkRun(run: try object.int("run"))
        default:
            throw WireError(
                .unknownCommand,
                "unknown command \"\(name)\"; known: subscribe, submit, abort, abortAll, cleanup, retry, confirm, decline, history, durations, runs, undo, observe, about, pending, refresh, confirmRun, checkRun")
        }
    }
}
