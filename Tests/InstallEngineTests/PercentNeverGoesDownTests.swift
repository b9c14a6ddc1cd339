import Foundation
import InstallEngineTesting
import Testing

@testable import InstallEngine

/// Rule 6 everywhere at once: whatever a child or a driver reports (figures that go down, NaN,
/// ±∞, below 0, above 100, results and aborts in between, updates a driver adds), no percent
/// of the job goes down and every one stays within 0…100 — in the machine's snapshots and the
/// figures its callbacks carry, in the events made of them, and in the queue model a consumer
/// (the monitor, a daemon client) builds after its outbox coalesced them. Random jobs from
/// fixed seeds on the harness's manual clock, so a failure names the seed that reproduces it.
@Suite("Rule 6: no percent ever goes down")
struct PercentNeverGoesDownTests {
    /// The highest figure seen so far per key; a lower one, or one outside 0…100, is a failure.
    private struct Watermarks<Key: Hashable> {
        private var highest: [Key: Double] = [:]

        mutating func see(_ figure: Double, at key: Key, _ what: @autoclosure () -> String,
                          sourceLocation: SourceLocation = #_sourceLocation) {
            #expect((0...100).contains(figure), "\(what()): \(figure) is outside 0…100", sourceLocation: sourceLocation)
            if let before = highest[key] {
                #expect(figure >= before, "\(what()) went down from \(before) to \(figure)", sourceLocation: sourceLocation)
            }
            highest[key] = max(highest[key] ?? figure, figure)
        }

        /// Forgets `key`: what it names starts again from nothing (an update's start).
        mutating func forget(_ key: Key) { highest[key] = nil }
    }

    @Test("A random job's percents never go down, from the machine to the queue model", arguments: 0..<UInt64(100))
    func neverGoesDown(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let byDriver = Bool.random(using: &random)
        let updates = (0..<Int.random(in: 1...5, using: &random)).map { index in
            update("u\(index)", progress: Bool.random(using: &random) ? .channel : .output,
                   timeout: Int.random(in: 0..<4, using: &random) == 0 ? .seconds(3) : nil, abortGrace: .seconds(2))
        }
        var job = JobMachineHarness(JobMachine(
            updates: updates, mode: byDriver ? .driver : .childPerUpdate, stopOnFailure: Bool.random(using: &random),
            acceptsAddedUpdates: byDriver && Bool.random(using: &random)))
        job.start()
        if byDriver {
            driveDriver(&job, random: &random)
        } else {
            driveChildren(&job, random: &random)
        }
        #expect(job.machine.isCompleted, "seed \(seed): the job ran to its end")
        checkMachine(job, seed: seed)
        checkQueueModel(events(of: job, planned: updates), seed: seed, random: &random)
    }

    // MARK: - Driving

    /// A figure as a hostile or careless reporter gives it: mostly near `base` (progress that
    /// moves on, and back now and then), else NaN, ±∞, out of range, 0 or 100.
    private func figure(near base: Double, _ random: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: .nan
        case 1: Bool.random(using: &random) ? .infinity : -.infinity
        case 2: Double.random(in: -50..<0, using: &random)
        case 3: Double.random(in: 100.001..<300, using: &random)
        case 4: 0
        case 5: 100
        default: base + Double.random(in: -10...10, using: &random)
        }
    }

    /// One child per update: each is launched, reports, maybe is aborted or times out on the
    /// clock, and ends with a random outcome.
    private func driveChildren(_ job: inout JobMachineHarness, random: inout SeededGenerator) {
        var launched: Set<Int> = []
        for step in 0..<200 where !job.machine.isCompleted {
            guard let index = updateAskedFor(job) else { return }
            if launched.insert(index).inserted {
                job.launched(index)
                continue
            }
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<10:
                let percent = figure(near: Double(step % 50) * 2, &random)
                job.report(.progress(percent: percent, message: Bool.random(using: &random) ? "step" : nil), from: index)
            case 10..<12:
                job.report(.output(.stdout, "\(Int.random(in: -20...250, using: &random))%"), from: index)
            case 12:
                job.report(.message("working"), from: index)
            case 13..<15:
                job.advance(by: .seconds(Int.random(in: 1...3, using: &random)))
            case 15:
                job.abort(force: Int.random(in: 0..<3, using: &random) == 0)
            default:
                let outcomes: [UpdateRunOutcome] = [.exited(0), .exited(0), .exited(1), .signaled(15)]
                job.ended(index, outcomes[Int.random(in: 0..<outcomes.count, using: &random)])
            }
        }
        while !job.machine.isCompleted, let index = updateAskedFor(job) {
            if launched.insert(index).inserted { job.launched(index) }
            job.ended(index, .exited(0))
        }
    }

    /// The update whose child the job asked for last.
    private func updateAskedFor(_ job: JobMachineHarness) -> Int? {
        for step in job.steps.reversed() {
            if case .startedUpdate(let index) = step { return index }
        }
        return nil
    }

    /// One driver for the job: it starts updates in any order, reports on them and on the
    /// whole job, adds updates when the job takes them, finishes them, and ends.
    private func driveDriver(_ job: inout JobMachineHarness, random: inout SeededGenerator) {
        for step in 0..<400 where !job.machine.isCompleted {
            // Mostly about updates that run, so that several move at once and an outbox that
            // coalesces them reorders their figures for the job; now and then any update.
            let results = job.machine.results
            let running = results.indices.filter { results[$0].resultCode == .inProgress }
            let anyIndex = Int.random(in: 0..<results.count, using: &random)
            let index = running.isEmpty || Int.random(in: 0..<5, using: &random) == 0
                ? anyIndex : running[Int.random(in: 0..<running.count, using: &random)]
            switch Int.random(in: 0..<40, using: &random) {
            case 0..<4:
                job.driver(.updateStarted(index: results.indices.first { results[$0].resultCode == .notStarted } ?? anyIndex))
            case 4..<26:
                job.driver(.update(index: index, .progress(percent: figure(near: Double(step) / 4, &random), message: nil)))
            case 26..<30:
                job.driver(.jobProgress(percent: figure(near: Double(step) / 4, &random)))
            case 30:
                job.driver(.updateAdded(update("added\(step)")))
            case 31..<33:
                let verdicts: [DriverVerdict] = [.succeeded, .succeeded, .failed("broken")]
                job.driver(.updateFinished(index: index, verdicts[Int.random(in: 0..<verdicts.count, using: &random)]))
            case 33 where Int.random(in: 0..<8, using: &random) == 0:
                // Rare: an abort is a change of the job's state, past which an outbox moves
                // no progress, so each one leaves less to reorder.
                job.abort(force: Bool.random(using: &random))
            case 34 where Int.random(in: 0..<8, using: &random) == 0:
                job.driver(.unstartedUpdatesFinished(.failed("not reached")))
            default:
                job.driver(.jobMessage("downloading \(step % 3)"))
            }
        }
        if !job.machine.isCompleted { job.driverEnded(.exited(Bool.random(using: &random) ? 0 : 100)) }
    }

    // MARK: - Checking

    /// Every snapshot's job percent, and every update's as the snapshots and the progress
    /// figures say it, never go down.
    private func checkMachine(_ job: JobMachineHarness, seed: UInt64) {
        var jobPercent = Watermarks<Int>()
        var updatePercents = Watermarks<Int>()
        var figures = Watermarks<Int>()
        for args in job.notifications {
            let snapshot = args.progress
            jobPercent.see(snapshot.percentComplete, at: 0, "seed \(seed): the snapshot's job percent")
            let current = snapshot.currentUpdateIndex
            if snapshot.updateResult(at: current).resultCode != .notStarted {
                updatePercents.see(snapshot.currentUpdatePercentComplete, at: current, "seed \(seed): update \(current)'s snapshot percent")
            }
            if case .progress(let index) = args.change, let percent = args.figures?.percent {
                figures.see(percent, at: index, "seed \(seed): update \(index)'s progress figure")
            }
        }
        #expect(job.machine.progress().percentComplete == 100, "seed \(seed): a completed job's percent is 100")
    }

    /// The job's events as the queue publishes them: queued and started, what the callbacks
    /// say, and its completion.
    private func events(of job: JobMachineHarness, planned updates: [Update]) -> [EngineEvent] {
        let translator = JobEventTranslator(job: 1, planned: updates)
        var events = [
            EngineEvent(kind: .jobQueued(JobDescriptor(id: 1, name: "job", operation: .install, updates: updates, stopOnFailure: false))),
            EngineEvent(kind: .jobStarted(job: 1)),
        ]
        events += job.notifications.map(translator.event(for:))
        if let result = job.machine.result { events.append(EngineEvent(kind: .jobCompleted(job: 1, result: result))) }
        return events
    }

    /// The events through an outbox that coalesces every update's progress (a consumer that
    /// keeps falling behind), taken in random batches, into a queue model: its job percent and
    /// each update's, after every event, never go down.
    private func checkQueueModel(_ events: [EngineEvent], seed: UInt64, random: inout SeededGenerator) {
        var outbox = SubscriberOutbox<EngineEvent>(limit: 1 << 30, coalescesProgressAfter: 0)
        var model = QueueModel()
        var jobPercent = Watermarks<Int>()
        var shownWhileRunning = Watermarks<Int>()
        var updatePercents = Watermarks<Int>()
        var pending = events[...]
        while !pending.isEmpty || !outbox.isEmpty {
            let batch = pending.prefix(Int.random(in: 1...200, using: &random))
            for event in batch { outbox.push(event, payload: event, size: 100) }
            pending = pending.dropFirst(batch.count)
            for delivery in outbox.take() {
                guard case .item(let event) = delivery else { continue }
                if case .updateStarted(let start) = event.kind { updatePercents.forget(start.index) }
                model.apply(event)
                guard let state = model.job(1) else { continue }
                jobPercent.see(state.percent, at: 0, "seed \(seed): the model's job percent")
                if state.phase != .completed {
                    shownWhileRunning.see(state.percentShown, at: 0, "seed \(seed): the job percent shown while it runs")
                }
                #expect((0...100).contains(state.percentShown), "seed \(seed): the job percent shown, \(state.percentShown)")
                for (index, update) in state.updates.enumerated() {
                    if let percent = update.percent { updatePercents.see(percent, at: index, "seed \(seed): the model's update \(index)") }
                    #expect((0...100).contains(update.percentReached), "seed \(seed): update \(index) reached \(update.percentReached)")
                }
            }
        }
        #expect(model.job(1)?.percent == 100, "seed \(seed): the completed job's percent is 100")
    }
}
