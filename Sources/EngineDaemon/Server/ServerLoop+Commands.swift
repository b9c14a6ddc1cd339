import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import InstallHistory
import Dispatch
import Synchronization

extension ServerLoop {
    /// Answers one line from client `id`. Never throws and never blocks on the engine:
    /// `cleanup`, which waits for a job, replies from a task.
    mutating func handle(_ line: LineReader.Line, from id: Int) {
        let bytes: [UInt8]
        switch line {
        case .tooLong(let length):
            reply(to: id, WireReply(command: "error", requestID: nil, error: WireError(
                .lineTooLong, "a command line of \(length) bytes was skipped: the limit is \(server.options.maximumLineLength) bytes")))
            return
        case .complete(let complete):
            bytes = complete
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let members: JSONMembers
        do {
            guard case .object(let object) = try JSONParser.parse(bytes) else {
                reply(to: id, WireReply(command: "error", requestID: nil, error: WireError(.malformed, "a command must be a JSON object")))
                return
            }
            members = object
        } catch {
            reply(to: id, WireReply(command: "error", requestID: nil, error: WireError(.malformed, error.description)))
            return
        }
        let requestID = members["id"]?.intValue
        let name = members["command"]?.stringValue ?? "error"
        do throws(WireError) {
            let command = try WireCommand(members, kinds: server.options.kinds)
            if let answer = try perform(command, requestID: requestID, from: id) { reply(to: id, answer) }
        } catch {
            reply(to: id, WireReply(command: name, requestID: requestID, error: error))
        }
    }

    /// Carries out `command`; returns the reply, or `nil` when it will be sent later.
    private mutating func perform(_ command: WireCommand, requestID: Int?, from id: Int) throws(WireError) -> WireReply? {
        let ok = WireReply(command: command.name, requestID: requestID)
        let who = connections[id]?.name ?? "client \(id)"
        if connections[id]?.watchesOnly == true, command.acts {
            server.options.log("refused \(command.name) from \(who): a watcher may not act")
            throw WireError(.notAllowed, "\(command.name) refused: uid \(connections[id]?.peer.uid ?? 0) watches this engine as a member of group "
                            + "\(server.options.watchGroup?.name ?? "?"); only uid \(uid) may submit, abort, clean up, retry, confirm, decline, undo or refresh")
        }
        switch command {
        case .subscribe:
            guard connections[id]?.subscribed == false else { throw WireError(.badArgument, "already subscribed") }
            connections[id]?.subscribed = true
            reply(to: id, ok)
            startSnapshot(for: id)
            return nil
        case .submit(let jobs):
            guard jobs.contains(where: { $0.kind != nil }) else {
                return try Self.submit(jobs, requestID: requestID, who: who, to: server)
            }
            // Planning a job of a kind runs its tool (apt-get's simulation, ansible-playbook
            // --list-hosts), seconds at times: on a thread of its own, so every other client is answered meanwhile.
            return replyOffThread(to: id) { server in
                do throws(WireError) {
                    return try Self.submit(jobs, requestID: requestID, who: who, to: server)
                } catch {
                    return WireReply(command: command.name, requestID: requestID, error: error)
                }
            }
        case .job(let jobCommand):
            return try perform(jobCommand, ok: ok, requestID: requestID, from: id, who: who)
        case .history(let limit):
            return WireReply(command: ok.command, requestID: requestID, fields: ["entries": .array(try historyEntries(limit: limit))])
        case .observe(let report):
            return observe(report)
        case .about:
            return WireReply(command: ok.command, requestID: requestID, fields: server.options.identity.fields)
        case .pending(let request):
            return try pending(request, requestID: requestID, from: id)
        case .refresh:
            return try refresh(requestID: requestID, from: id, who: who)
        case .durations(let updateIDs):
            return WireReply(command: ok.command, requestID: requestID, fields: ["durations": .object(JSONMembers(try durations(of: updateIDs)))])
        case .runs(let limit):
            // Each run's undoability reads dpkg (`ServerOptions.halfWay`): off the I/O thread,
            // as planning is, so that no other client waits for dpkg-query.
            return replyOffThread(to: id) { server in
                do throws(WireError) {
                    return WireReply(command: ok.command, requestID: requestID, fields: ["runs": .array(try Self.jobRuns(limit: limit, of: server))])
                } catch {
                    return WireReply(command: command.name, requestID: requestID, error: error)
                }
            }
        case .confirmRun(let run, let extend):
            guard let armed = server.options.armed else {
                throw WireError(.confirmRefused, "this engine keeps no commit-confirmed runs: installtop confirm --run \(run) on its host can")
            }
            // The decision is a write transaction of the history: off the I/O thread.
            server.options.log("\(extend == nil ? "confirmation" : "extension") of run \(run) asked by \(who)")
            return replyOffThread(to: id) { _ in
                switch armed.decide(run: run, extend: extend) {
                case .success(let said): WireReply(command: command.name, requestID: requestID, fields: ["said": .string(said)])
                case .failure(let error): WireReply(command: command.name, requestID: requestID, error: error)
                }
            }
        case .checkRun(let run):
            guard let armed = server.options.armed else {
                throw WireError(.notArmed, "this engine keeps no commit-confirmed runs, so it runs no run's checks again")
            }
            // The checks run for seconds, each up to a minute: off the I/O thread.
            server.options.log("checks of run \(run) run again, asked by \(who)")
            return replyOffThread(to: id) { _ in
                switch armed.checkAgain(run: run) {
                case .success(let checked): WireReply(command: command.name, requestID: requestID, fields: checked.fields)
                case .failure(let error): WireReply(command: command.name, requestID: requestID, error: error)
                }
            }
        case .undo(let run):
            guard let undo = server.options.undo else {
                throw WireError(.notUndoable, "this engine runs no undo: installtop apt undo \(run) on its host can")
            }
            // Planning asks the history, dpkg and apt (a second or more): off the I/O thread, as
            // a submission's planning is.
            server.options.log("undo of run \(run) asked by \(who)")
            return replyOffThread(to: id) { server in
                switch undo(run) {
                case .success(let job):
                    // The job's `job.queued` goes out before the reply, as for a submission.
                    server.queue.waitUntilDelivered()
                    return WireReply(command: command.name, requestID: requestID, fields: ["job": .integer(job)])
                case .failure(let error):
                    return WireReply(command: command.name, requestID: requestID, error: error)
                }
            }
        }
    }

    /// Answers client `id` off the I/O thread: `answer` (planning a job, reading dpkg, running
    /// checks, writing the history: seconds at times) runs on Dispatch's global queue so that
    /// every other client is answered meanwhile. The reply is owed from now on: a client that
    /// shut down its sending side after its command is closed only once the reply is written.
    /// Returns `nil`, the command's immediate reply (none).
    func replyOffThread(to id: Int, _ answer: @escaping @Sendable (EngineServer) -> WireReply) -> WireReply? {
        let server = self.server
        server.oweReply(to: id)
        DispatchQueue.global().async { server.send(answer(server).line, to: id, owed: true) }
        return nil
    }

    /// Carries out a job command (`JobQueue.perform`); `nil` for `cleanup`, which replies once
    /// the job is gone.
    private func perform(_ command: JobCommand, ok: WireReply, requestID: Int?, from id: Int, who: String) throws(WireError) -> WireReply? {
        let server = self.server
        // A clean-up answers from the queue's callback thread, exactly once, refusal included;
        // it is never refused by throwing, so the reply owed here is always sent.
        if case .cleanUp = command { server.oweReply(to: id) }
        let outcome: JobCommandOutcome
        do {
            outcome = try server.queue.perform(command) { error in
                guard case .cleanUp(let job) = command else { return }
                if let error {
                    server.send(WireReply(command: ok.command, requestID: requestID, error: WireError(error)).line, to: id, owed: true)
                } else {
                    server.send(ok.line, to: id, afterCleanUpOf: job)
                }
            }
        } catch {
            throw WireError(error)
        }
        switch (command, outcome) {
        case (.cleanUp, _):
            return nil
        case (.retry(let job), .requeued(let descriptor)):
            server.options.log("\(who) re-queued job \(job) as job \(descriptor.id)")
            return WireReply(command: ok.command, requestID: requestID, fields: ["job": .integer(descriptor.id)])
        case (.abort(let job, let force), _):
            server.options.log("\(who) aborted job \(job)\(force ? " (forced)" : "")")
        case (.abortAll(let force), _):
            server.options.log("\(who) aborted every job\(force ? " (forced)" : "")")
        case (.confirm(let job), _):
            server.options.log("\(who) confirmed job \(job)")
        case (.decline(let job), _):
            server.options.log("\(who) declined job \(job)")
        case (.retry, _):
            break
        }
        return ok
    }

    /// Plans, checks and queues `jobs`, all or none (`JobPlanner`, as `run` plans a manifest's).
    /// Touches only `server`, so it may run off the loop's thread.
    private static func submit(_ jobs: [JobSubmission], requestID: Int?, who: String, to server: EngineServer) throws(WireError) -> WireReply {
        guard server.shared.withLock({ $0.acceptsSubmissions }) else {
            throw WireError(.shuttingDown, "the engine is shutting down and takes no new jobs")
        }
        guard !jobs.isEmpty else { throw WireError(.badArgument, "submit: `jobs` is empty") }
        // All or nothing: every job is checked (and every job of a kind planned) before the
        // first is queued.
        var planned: [PlannedJob] = []
        for (position, job) in jobs.enumerated() {
            let plan: PlannedJob
            do {
                plan = try JobPlanner.plan(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure,
                                           kind: job.kind)
            } catch {
                throw WireError(.invalidJob, "job \(position + 1) (\(job.name)): \(error.subject): \(error.reason)")
            }
            switch plan {
            case .nothingToDo(let reason):
                throw WireError(.nothingToDo, "job \(position + 1) (\(job.name)): \(reason)")
            case .job(_, let operation, let updates, _, nil):
                do {
                    try UpdateInstaller.validate(updates, for: operation)
                } catch {
                    throw WireError(.invalidJob, "job \(position + 1) (\(job.name)): \(error.description)")
                }
            case .job, .session:
                break
            }
            planned.append(plan)
        }
        var ids: [JSONValue] = []
        for (plan, submitted) in zip(planned, jobs) {
            switch plan {
            case .session(let session):
                // Its jobs are declared as it runs; it has no job number of its own.
                server.queue.submitSession(session)
                server.options.log("\(who) submitted a driver session (\(submitted.kind?.key ?? "driver")): \(submitted.name)")
            case .job(let name, let operation, let updates, let stopOnFailure, let driver):
                server.options.beforeQueueing?(name, driver)
                do {
                    let descriptor = try server.queue.submit(
                        name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure, driver: driver,
                        awaitsConfirmation: submitted.awaitsConfirmation
                    ) { descriptor in
                        // Before the job can start, so the log reads "submitted", then "started".
                        let waits = descriptor.awaitsConfirmation ? ", awaiting confirmation" : ""
                        server.options.log("\(who) submitted job \(descriptor.id): \(name) (\(updates.count) update\(updates.count == 1 ? "" : "s")\(waits))")
                    }
                    ids.append(.integer(descriptor.id))
                } catch {
                    throw WireError(.invalidJob, "job \(name): \(error.description)")
                }
            case .nothingToDo:
                break
            }
        }
        // A stop that began while these were being queued may have aborted every job just
        // before them: these are aborted too, so that the stopping engine waits for no job.
        if !server.shared.withLock({ $0.acceptsSubmissions }) {
            for id in ids.compactMap(\.intValue) { try? server.queue.abort(job: id) }
        }
        // The engine delivers its events on a queue of its own: the reply waits for them, so a
        // client reads its jobs' `job.queued` before the reply, and a `status` sent after the
        // reply finds them.
        server.queue.waitUntilDelivered()
        return WireReply(command: "submit", requestID: requestID, fields: ["jobs": .array(ids)])
    }

    private func historyEntries(limit: Int) throws(WireError) -> [JSONValue] {
        switch server.history {
        case .off(let reason):
            throw WireError(.historyUnavailable, reason)
        case .store(let store):
            do {
                // Without the output tails (up to 200 lines each), which no view over the
                // socket shows: 500 rows stay a few hundred kilobytes.
                return try store.entries(limit: limit).map { entry in
                    var entry = entry
                    entry.outputTail = ""
                    return try JSONParser.parse(try HistoryEntryJSON.line(for: entry))
                }
            } catch {
                throw WireError(.historyUnavailable, "history could not be read: \(error)")
            }
        }
    }

    private static func jobRuns(limit: Int, of server: EngineServer) throws(WireError) -> [JSONValue] {
        switch server.history {
        case .off(let reason):
            throw WireError(.historyUnavailable, reason)
        case .store(let store):
            do {
                return try store.jobRuns(limit: limit, halfWay: server.options.halfWay).map {
                    try JSONParser.parse(try JobRunJSON.line(for: $0))
                }
            } catch {
                throw WireError(.historyUnavailable, "history could not be read: \(error)")
            }
        }
    }

    private func durations(of updateIDs: [String]) throws(WireError) -> [String: JSONValue] {
        guard case .store(let store) = server.history else { return [:] }
        var durations: [String: JSONValue] = [:]
        for updateID in Set(updateIDs) {
            do {
                if let median = try store.medianDuration(updateID: updateID) {
                    durations[updateID] = .double(Double(median.wholeMilliseconds) / 1000)
                }
            } catch {
                throw WireError(.historyUnavailable, "history could not be read: \(error)")
            }
        }
        return durations
    }

    private func reply(to id: Int, _ reply: WireReply) {
        server.send(reply.line, to: id)
    }
}
