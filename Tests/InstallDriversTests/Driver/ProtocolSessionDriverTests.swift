import Foundation
import InstallDrivers
import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// A program speaking the driver protocol, run as a session driver through the queue (rule 27):
/// its plans become jobs as they are declared, each job starts with its first update, a stop
/// goes to it on fd 4, and everything settles when it ends.
@Suite("Protocol session drivers", .serialized)
struct ProtocolSessionDriverTests {
    final class Events: Sendable {
        private let events = Mutex<[EngineEvent]>([])
        func add(_ event: EngineEvent) { events.withLock { $0.append(event) } }
        var all: [EngineEvent] { events.withLock { $0 } }
    }

    /// A shell script as the driver; `body` writes protocol lines with `say '…'`.
    private func driver(_ body: String) throws -> (ProtocolSessionDriver, URL) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "installtop-session-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appending(path: "driver.sh")
        try ExecutableFile.write("#!/bin/sh\nsay() { printf '%s\\n' \"$1\" >&3; }\n" + body + "\n", to: script.path)
        return (ProtocolSessionDriver(command: [script.path], workingDirectory: folder.path), folder)
    }

    private func run(_ driver: ProtocolSessionDriver, concurrency: Int = 1, then: (JobQueue) async throws -> Void = { _ in })
        async throws -> (QueueModel, Events) {
        let queue = JobQueue(backend: ProcessBackend(), concurrency: concurrency)
        let events = Events()
        queue.subscribe { events.add($0) }
        queue.submitSession(driver)
        try await then(queue)
        await queue.waitUntilIdle()
        return (queue.snapshot(), events)
    }

    @Test("Two hosts: each plan a job, tasks as updates; a failed host's remaining tasks are not started; skipped counts as succeeded")
    func twoHosts() async throws {
        let (driver, folder) = try driver("""
            say '{"type":"hello","protocol":1,"driver":"test"}'
            say '{"type":"plan","job":"1/web1","name":"web1","updates":[{"id":"t1","title":"Install"},{"id":"t2","title":"Configure"}]}'
            say '{"type":"plan","job":"1/web2","name":"web2","updates":[{"id":"t1","title":"Install"},{"id":"t2","title":"Configure"}]}'
            say '{"type":"started","job":"1/web1","update":"t1"}'
            say '{"type":"started","job":"1/web2","update":"t1"}'
            say '{"type":"finished","job":"1/web1","update":"t1","result":"succeeded","changed":true}'
            say '{"type":"finished","job":"1/web2","update":"t1","result":"failed","reason":"no such package"}'
            say '{"type":"jobEnded","job":"1/web2","reason":"host failed"}'
            say '{"type":"started","job":"1/web1","update":"t2"}'
            say '{"type":"reboot","job":"1/web1","update":"t2"}'
            say '{"type":"finished","job":"1/web1","update":"t2","result":"skipped","reason":"conditional result was False"}'
            say '{"type":"jobEnded","job":"1/web1","reason":"play ended"}'
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, _) = try await run(driver)
        #expect(model.jobs.map(\.descriptor.name) == ["web1", "web2"])
        let web1 = try #require(model.jobs.first)
        #expect(web1.result?.resultCode == .succeeded, "\(web1.updates.map(\.result))")
        #expect(web1.updates[1].result.skipped)
        #expect(web1.updates[1].result.reason == "conditional result was False")
        let web2 = try #require(model.jobs.last)
        #expect(web2.updates[0].result.resultCode == .failed && web2.updates[0].result.reason == "no such package")
        #expect(web2.updates[1].result.resultCode == .aborted && web2.updates[1].result.hResult == .callCancelled)
        #expect(web2.updates[1].result.reason == "not started: host failed")
        #expect(web2.result?.resultCode == .failed || web2.result?.resultCode == .succeededWithErrors)
    }

    @Test("Lines that are not JSON, and messages naming an update or a job outside the plans, count as protocol errors of a job: the one named, else the one spoken of last, else the first declared")
    func protocolErrorsCountOnAJob() async throws {
        let (driver, folder) = try driver("""
            say 'not json before any plan'
            say '{"type":"plan","job":"a","name":"a","updates":[{"id":"t1"}]}'
            say '{"type":"plan","job":"b","name":"b","updates":[{"id":"t1"}]}'
            say '{"type":"started","job":"a","update":"t1"}'
            say 'not json after a spoke'
            say '{"type":"started","job":"b","update":"nope"}'
            say '{"type":"finished","job":"a","update":"t1","result":"succeeded"}'
            say '{"type":"started","job":"b","update":"t1"}'
            say '{"type":"output","job":"zzz","line":"a job never declared: counted on b, spoken of last"}'
            say '{"type":"finished","job":"b","update":"t1","result":"succeeded"}'
            say '{"type":"jobEnded","job":"a"}'
            say '{"type":"jobEnded","job":"b"}'
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, events) = try await run(driver)
        let errors = Dictionary(uniqueKeysWithValues: model.jobs.map { ($0.descriptor.name, $0.result?.protocolErrors ?? -1) })
        #expect(errors == ["a": 2, "b": 2], "a: the line before any plan and the one after a spoke; b: its unknown update and the unknown job")
        #expect(model.jobs.allSatisfy { $0.result?.resultCode == .succeeded }, "ignored, never fatal: \(model.jobs.map(\.result))")
        let completed = events.all.compactMap { event -> InstallationResult? in
            if case .jobCompleted(let completion) = event.kind { return completion.result }
            return nil
        }
        #expect(completed.map(\.protocolErrors).reduce(0, +) == 4, "job.completed carries the counts")
    }

    @Test("A host declared but never started completes as not reached when the driver ends")
    func declaredNeverStarted() async throws {
        let (driver, folder) = try driver("""
            say '{"type":"plan","job":"a","name":"a","updates":[{"id":"t1"}]}'
            exit 2
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, _) = try await run(driver)
        let job = try #require(model.jobs.first)
        #expect(job.updates[0].result.resultCode == .failed)
        #expect(job.updates[0].result.reason?.hasPrefix("not reached") == true, "\(job.updates[0].result)")
    }

    @Test("Abort of one host's job sends a stop for that job on fd 4; the running task keeps its result")
    func stopOneJob() async throws {
        let (driver, folder) = try driver("""
            say '{"type":"plan","job":"w1","name":"w1","updates":[{"id":"t1"},{"id":"t2"}]}'
            say '{"type":"started","job":"w1","update":"t1"}'
            read line <&4
            printf '%s\\n' "$line" > control.txt
            say '{"type":"stopping","job":"w1","waitingFor":["t1"]}'
            say '{"type":"finished","job":"w1","update":"t1","result":"succeeded"}'
            say '{"type":"jobEnded","job":"w1","reason":"stopped"}'
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, events) = try await run(driver) { queue in
            _ = await eventually { queue.snapshot().jobs.first?.updates.first?.result.resultCode == .inProgress }
            try queue.abort(job: 1)
        }
        #expect(try String(contentsOf: folder.appending(path: "control.txt"), encoding: .utf8) == #"{"type":"stop","job":"w1"}"# + "\n")
        let job = try #require(model.jobs.first)
        #expect(job.updates[0].result.resultCode == .succeeded)
        #expect(job.updates[1].result.resultCode == .aborted && job.updates[1].result.hResult == .callCancelled)
        #expect(job.result?.resultCode == .aborted)
        let messages = events.all.compactMap { event -> String? in
            if case .progress(let progress) = event.kind { return progress.message }
            return nil
        }
        #expect(messages.contains("stopping after this task (abort requested)"))
    }

    @Test("The session holds one slot: a job submitted after it waits until the driver ends")
    func oneSlot() async throws {
        let (driver, folder) = try driver("""
            say '{"type":"plan","job":"a","name":"a","updates":[{"id":"t1"}]}'
            say '{"type":"plan","job":"b","name":"b","updates":[{"id":"t1"}]}'
            say '{"type":"started","job":"a","update":"t1"}'
            say '{"type":"started","job":"b","update":"t1"}'
            say '{"type":"finished","job":"a","update":"t1","result":"succeeded"}'
            say '{"type":"finished","job":"b","update":"t1","result":"succeeded"}'
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, events) = try await run(driver) { queue in
            try queue.submit(name: "after", updates: [Update(id: "x", installCommand: .argv(["/bin/true"]))])
        }
        #expect(model.jobs.allSatisfy { $0.result?.resultCode == .succeeded }, "\(model.jobs.map(\.result))")
        let started = events.all.compactMap { event -> Int? in
            if case .jobStarted(let start) = event.kind { return start.job }
            return nil
        }
        // The session's jobs started in its slot; the job submitted after it only once it ended.
        let after = try #require(model.jobs.first { $0.descriptor.name == "after" })
        #expect(started.count == 3 && started.last == after.id, "\(started)")
    }

    @Test("A job the driver ends completes before a job the driver's next line begins (the next serial batch)")
    func endedJobCompletesBeforeTheNextStarts() async throws {
        // The driver goes on once job a's start has reached the job (its update is running):
        // the end of a job that runs is what this is about.
        let (driver, folder) = try driver("""
            say '{"type":"plan","job":"a","name":"a","updates":[{"id":"t1"}]}'
            say '{"type":"plan","job":"b","name":"b","updates":[{"id":"t1"}]}'
            say '{"type":"started","job":"a","update":"t1"}'
            i=0
            until [ -e go ] || [ $i -ge 6000 ]; do sleep 0.01; i=$((i+1)); done
            say '{"type":"finished","job":"a","update":"t1","result":"succeeded"}'
            say '{"type":"jobEnded","job":"a","reason":"done"}'
            say '{"type":"started","job":"b","update":"t1"}'
            say '{"type":"finished","job":"b","update":"t1","result":"succeeded"}'
            say '{"type":"jobEnded","job":"b","reason":"done"}'
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, events) = try await run(driver) { queue in
            _ = await eventually { queue.snapshot().jobs.first?.updates.first?.result.resultCode == .inProgress }
            try Data().write(to: folder.appending(path: "go"))
        }
        #expect(model.jobs.allSatisfy { $0.result?.resultCode == .succeeded }, "\(model.jobs.map(\.result))")
        let order = events.all.compactMap { event -> String? in
            switch event.kind {
            case .jobStarted(let start): return "started \(start.job)"
            case .jobCompleted(let completion): return "completed \(completion.job)"
            default: return nil
            }
        }
        #expect(order == ["started 1", "completed 1", "started 2", "completed 2"], "\(order)")
    }

    @Test("A driver that ends before declaring any job leaves a failed job saying why, in its own last words")
    func failsBeforeAnyPlan() async throws {
        let (driver, folder) = try driver("""
            echo "ERROR! the playbook could not be read" >&2
            exit 4
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, _) = try await run(driver)
        let job = try #require(model.jobs.first)
        #expect(job.descriptor.name == "driver")
        #expect(job.updates[0].result.resultCode == .failed)
        #expect(job.updates[0].result.reason?.contains("the playbook could not be read") == true, "\(job.updates[0].result)")
        #expect(job.updates[0].result.reason?.contains("status 4") == true, "\(job.updates[0].result)")

        let (missing, _) = try await run(ProtocolSessionDriver(command: ["/nonexistent/driver"]))
        #expect(missing.jobs.first?.updates.first?.result.reason?.contains("/nonexistent/driver") == true,
                "\(String(describing: missing.jobs.first?.updates.first?.result))")
    }
}
