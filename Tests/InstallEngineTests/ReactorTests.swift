import CPosixSpawn
import Foundation
import Glibc
@testable import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

@Suite("Reactor: one thread for descriptors, timers and posted work")
struct ReactorTests {
    /// A reactor of the test's own, stopped (its thread ended) when the test is over.
    private func withReactor(_ body: (Reactor) async throws -> Void) async rethrows {
        let reactor = Reactor(name: "test-reactor")
        defer { reactor.stop() }
        try await body(reactor)
    }

    /// A non-blocking pipe, closed by `close()`. Each end is closed once: a second close
    /// could close a descriptor another test running beside this one opened meanwhile.
    private final class Pipe: Sendable {
        let read: Int32
        let write: Int32
        private let writeClosed = Atomic<Bool>(false)

        init() throws {
            var fds: [Int32] = [-1, -1]
            guard cps_pipe_cloexec(&fds, 1) == 0 else { throw SystemError(code: errno) }
            read = fds[0]
            write = fds[1]
        }

        func send(_ text: String) {
            _ = text.withCString { Glibc.write(write, $0, strlen($0)) }
        }

        /// Everything in the pipe now, read without waiting.
        func drain() -> String {
            var bytes = [UInt8](repeating: 0, count: 4096)
            var text = ""
            while true {
                let count = Glibc.read(read, &bytes, bytes.count)
                guard count > 0 else { return text }
                text += String(decoding: bytes[..<count], as: UTF8.self)
            }
        }

        /// Closes the write end: the reader sees a hang-up.
        func closeWrite() {
            guard !writeClosed.exchange(true, ordering: .sequentiallyConsistent) else { return }
            Glibc.close(write)
        }

        func close() {
            Glibc.close(read)
            closeWrite()
        }
    }

    /// Returns once a closure posted now has run: every wake-up before it is over.
    private func roundTrip(_ reactor: Reactor) async -> Bool {
        let done = LockedValue(false)
        reactor.post { done.set(true) }
        return await eventually { done.value }
    }

    /// Returns once the loop's thread sleeps (state `S`: in its `epoll_wait`, nothing else
    /// there blocks) after a post ran: anything done now must wake it.
    private func loopIsAsleep(_ reactor: Reactor) async -> Bool {
        let thread = LockedValue("")
        // "/proc/thread-self" links to "PID/task/TID".
        reactor.post { thread.set((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "?") }
        guard await eventually({ !thread.value.isEmpty }), let tid = thread.value.split(separator: "/").last else { return false }
        return await eventually {
            ProcessStat.fields(in: "/proc/self/task/\(tid)")?.first?.hasPrefix("S") == true
        }
    }

    // MARK: - Descriptors

    @Test func aReadablePipeCallsItsHandlerOnTheNamedLoopThreadAndAHangUpToo() async throws {
        try await withReactor { reactor in
            let pipe = try Pipe()
            defer { pipe.close() }
            let seen = LockedValue<[String]>([])
            let onLoop = LockedValue<[Bool]>([])
            let threadName = LockedValue("")
            let registration = try reactor.register(pipe.read) { readiness in
                onLoop.update { $0.append(reactor.isOnLoopThread) }
                threadName.set(ThreadNames.current)
                let text = pipe.drain()
                if !text.isEmpty { seen.update { $0.append(text) } }
                if readiness.contains(.hangUp) { seen.update { $0.append("hang-up") } }
            }
            pipe.send("hello")
            #expect(await eventually { seen.value == ["hello"] })
            pipe.closeWrite()
            #expect(await eventually { seen.value.last == "hang-up" })
            reactor.cancel(registration)
            #expect(onLoop.value.allSatisfy { $0 } && !onLoop.value.isEmpty)
            #expect(!reactor.isOnLoopThread)
            #expect(threadName.value == "test-reactor")
        }
    }

    @Test func aOneShotRegistrationIsReportedOnceUntilWatchedAgain() async throws {
        try await withReactor { reactor in
            let pipe = try Pipe()
            defer { pipe.close() }
            let calls = LockedValue(0)
            // Never read: level-triggered, it would be reported on every wake-up.
            pipe.send("x")
            let registration = try reactor.register(pipe.read, oneShot: true) { _ in calls.update { $0 += 1 } }
            #expect(await eventually { calls.value == 1 })
            for _ in 0..<3 { #expect(await roundTrip(reactor)) }
            #expect(calls.value == 1)
            reactor.watch(registration, oneShot: true)
            #expect(await eventually { calls.value == 2 })
            #expect(await roundTrip(reactor))
            #expect(calls.value == 2)
            reactor.cancel(registration)
        }
    }

    @Test func aHeldRegistrationReportsNoInputUntilWatched() async throws {
        try await withReactor { reactor in
            let pipe = try Pipe()
            defer { pipe.close() }
            let calls = LockedValue(0)
            let registration = try reactor.register(pipe.read) { _ in
                calls.update { $0 += 1 }
                _ = pipe.drain()
            }
            reactor.hold(registration)
            pipe.send("held")
            for _ in 0..<3 { #expect(await roundTrip(reactor)) }
            #expect(calls.value == 0)
            reactor.watch(registration, oneShot: false)
            #expect(await eventually { calls.value == 1 })
            reactor.cancel(registration)
        }
    }

    @Test("cancel from another thread returns with the handler not running, and it is never called after")
    func cancelFromAnotherThreadWaitsForARunningHandler() async throws {
        try await withReactor { reactor in
            let pipe = try Pipe()
            defer { pipe.close() }
            // Never read, so the handler is called on every wake-up, over and over.
            pipe.send("x")
            let inside = LockedValue(false)
            let calls = LockedValue(0)
            let registration = try reactor.register(pipe.read) { _ in
                inside.set(true)
                calls.update { $0 += 1 }
                // Long enough that a cancel which did not wait would often return meanwhile.
                for _ in 0..<200 { sched_yield() }
                inside.set(false)
            }
            #expect(await eventually { calls.value >= 3 })
            reactor.cancel(registration)
            #expect(!inside.value, "cancel returned while the handler was running")
            let callsAtCancel = calls.value
            for _ in 0..<3 { #expect(await roundTrip(reactor)) }
            #expect(calls.value == callsAtCancel)
        }
    }

    @Test func aHandlerCancellingItselfIsNotCalledAgain() async throws {
        try await withReactor { reactor in
            let pipe = try Pipe()
            defer { pipe.close() }
            pipe.send("x")
            let calls = LockedValue(0)
            let registration = LockedValue<Reactor.Registration?>(nil)
            reactor.post {
                registration.set(try? reactor.register(pipe.read) { _ in
                    calls.update { $0 += 1 }
                    // From the loop's thread: returns at once, no waiting for itself.
                    registration.value.map(reactor.cancel)
                })
            }
            #expect(await eventually { calls.value == 1 })
            for _ in 0..<3 { #expect(await roundTrip(reactor)) }
            #expect(calls.value == 1)
        }
    }

    @Test("a handler that cancels another registration ready in the same wake-up stops its call")
    func cancellingAnotherReadyRegistrationInTheSameWakeUp() async throws {
        try await withReactor { reactor in
            let first = try Pipe(), second = try Pipe()
            defer {
                first.close()
                second.close()
            }
            first.send("x")
            second.send("x")
            let called = LockedValue<[Int]>([])
            let registrations = LockedValue<[Reactor.Registration]>([])
            // Registered on the loop's thread, so both are ready in its next wait.
            reactor.post {
                for (index, pipe) in [first, second].enumerated() {
                    guard let registration = try? reactor.register(pipe.read, { _ in
                        called.update { $0.append(index) }
                        for registration in registrations.value { reactor.cancel(registration) }
                    }) else { continue }
                    registrations.update { $0.append(registration) }
                }
            }
            #expect(await eventually { !called.value.isEmpty })
            for _ in 0..<3 { #expect(await roundTrip(reactor)) }
            #expect(called.value.count == 1, "\(called.value)")
        }
    }

    @Test func aPipeThatCannotBeRegisteredTwiceThrows() async throws {
        try await withReactor { reactor in
            let pipe = try Pipe()
            defer { pipe.close() }
            let registration = try reactor.register(pipe.read) { _ in }
            #expect(throws: SystemError.self) { try reactor.register(pipe.read) { _ in } }
            reactor.cancel(registration)
            // Cancelled, it can be registered again.
            reactor.cancel(try reactor.register(pipe.read) { _ in })
        }
    }

    // MARK: - Timers and posts

    @Test func timersDueTogetherFireNearestDeadlineFirst() async {
        await withReactor { reactor in
            let fired = LockedValue<[Int]>([])
            let past = ContinuousClock.now - .seconds(1)
            // Scheduled from the loop's thread in one closure, all past: due in the same wake-up.
            reactor.post {
                for offset in [30, 10, 20, 0] {
                    reactor.schedule(at: past + .milliseconds(offset)) { fired.update { $0.append(offset) } }
                }
            }
            #expect(await eventually { fired.value.count == 4 })
            #expect(fired.value == [0, 10, 20, 30])
        }
    }

    @Test func aTimerNeverFiresBeforeItsDeadline() async {
        await withReactor { reactor in
            let firedAt = LockedValue<[ContinuousClock.Instant]>([])
            let deadlines = [1, 3, 7].map { ContinuousClock.now + .milliseconds($0) }
            for deadline in deadlines { reactor.schedule(at: deadline) { firedAt.update { $0.append(.now) } } }
            #expect(await eventually { firedAt.value.count == 3 })
            #expect(zip(firedAt.value, deadlines).allSatisfy { $0 >= $1 })
        }
    }

    @Test func aCancelledTimerNeverFires() async {
        await withReactor { reactor in
            let fired = LockedValue<[String]>([])
            let past = ContinuousClock.now - .seconds(1)
            // From another thread, before it is due.
            let later = reactor.schedule(after: .seconds(3600)) { fired.update { $0.append("later") } }
            reactor.cancel(later)
            reactor.post {
                let cancelled = reactor.schedule(at: past) { fired.update { $0.append("cancelled") } }
                // Due in the same wake-up as the one that cancels it, and later than it.
                let cancelledByTimer = reactor.schedule(at: past + .milliseconds(2)) { fired.update { $0.append("cancelled by timer") } }
                reactor.schedule(at: past + .milliseconds(1)) {
                    fired.update { $0.append("canceller") }
                    reactor.cancel(cancelledByTimer)
                }
                reactor.cancel(cancelled)
                reactor.schedule(at: past + .milliseconds(3)) { fired.update { $0.append("last") } }
            }
            #expect(await eventually { fired.value.last == "last" })
            #expect(fired.value == ["canceller", "last"])
        }
    }

    @Test("a timer scheduled from another thread wakes a loop waiting with no deadline")
    func aTimerFromAnotherThreadWakesTheLoop() async {
        await withReactor { reactor in
            #expect(await roundTrip(reactor))
            let fired = LockedValue(false)
            reactor.schedule(after: .milliseconds(1)) { fired.set(true) }
            #expect(await eventually { fired.value })
        }
    }

    @Test func postsRunInOrderAfterTheHandlersOfTheirWakeUp() async throws {
        try await withReactor { reactor in
            let first = try Pipe(), second = try Pipe()
            defer {
                first.close()
                second.close()
            }
            let order = LockedValue<[String]>([])
            for number in 0..<50 { reactor.post { order.update { $0.append("post \(number)") } } }
            #expect(await eventually { order.value.count == 50 })
            #expect(order.value == (0..<50).map { "post \($0)" })

            first.send("x")
            second.send("x")
            order.set([])
            let registrations = LockedValue<[Reactor.Registration]>([])
            reactor.post {
                for pipe in [first, second] {
                    guard let registration = try? reactor.register(pipe.read, { _ in
                        _ = pipe.drain()
                        // The first handler posts; the second still runs before the post.
                        if order.value.isEmpty { reactor.post { order.update { $0.append("posted") } } }
                        order.update { $0.append("handler") }
                    }) else { continue }
                    registrations.update { $0.append(registration) }
                }
            }
            #expect(await eventually { order.value.count == 3 })
            #expect(order.value == ["handler", "handler", "posted"])
            for registration in registrations.value { reactor.cancel(registration) }
        }
    }

    // MARK: - Lost wake-ups

    @Test("a descriptor number taken again after cancel and close reaches the new registration only")
    func aReusedDescriptorNumberReachesOnlyTheNewRegistration() async throws {
        try await withReactor { reactor in
            let old = try Pipe()
            let oldCalls = LockedValue(0)
            // Never read (after `cancel` its number may be another's), so reported on every
            // wake-up until cancelled.
            let oldRegistration = try reactor.register(old.read) { _ in oldCalls.update { $0 += 1 } }
            old.send("old")
            #expect(await eventually { oldCalls.value >= 1 })
            let number = old.read
            // Cancelled before it is closed, as the registrants do; from this thread, cancel
            // waits for a call that runs, so the count is final.
            reactor.cancel(oldRegistration)
            let callsAtCancel = oldCalls.value
            old.close()
            // The lowest free number is taken next: most often the old one, unless a test
            // beside this one took it first (then the check below still holds, less sharply).
            var spares: [Pipe] = []
            defer { for spare in spares { spare.close() } }
            var new = try Pipe()
            while new.read != number, spares.count < 8 {
                spares.append(new)
                new = try Pipe()
            }
            let newPipe = new
            defer { newPipe.close() }
            let seen = LockedValue<[String]>([])
            let newRegistration = try reactor.register(newPipe.read) { _ in
                let text = newPipe.drain()
                if !text.isEmpty { seen.update { $0.append(text) } }
            }
            newPipe.send("new")
            #expect(await eventually { seen.value == ["new"] })
            for _ in 0..<3 { #expect(await roundTrip(reactor)) }
            #expect(oldCalls.value == callsAtCancel, "the cancelled registration was called for the descriptor that took its number")
            reactor.cancel(newRegistration)
        }
    }

    @Test("registering and watching again from another thread wake a loop asleep with no deadline")
    func registeringAndWatchingFromAnotherThreadWakeTheLoop() async throws {
        try await withReactor { reactor in
            let pipe = try Pipe()
            defer { pipe.close() }
            #expect(await loopIsAsleep(reactor))
            // Readable before it is registered: epoll reports it on its insertion.
            pipe.send("x")
            let calls = LockedValue(0)
            let registration = try reactor.register(pipe.read, oneShot: true) { _ in calls.update { $0 += 1 } }
            #expect(await eventually { calls.value == 1 })
            #expect(await loopIsAsleep(reactor))
            reactor.watch(registration, oneShot: true)
            #expect(await eventually { calls.value == 2 })
            reactor.cancel(registration)
        }
    }

    @Test("timers and posts from four threads at once, while the loop sleeps for an hour, all run; each thread's posts in order")
    func timersAndPostsFromManyThreadsAllRun() async {
        await withReactor { reactor in
            // Four, not more: EngineThreadCapTests counts every thread of the process.
            let threads = 4, each = 400
            let fired = LockedValue(0)
            let posts = LockedValue<[Int: [Int]]>([:])
            let far = reactor.schedule(after: .seconds(3600)) {}
            #expect(await loopIsAsleep(reactor))
            for thread in 0..<threads {
                EngineThread.detach(named: "test-poster") {
                    for index in 0..<each {
                        reactor.schedule(after: .microseconds(index % 50)) { fired.update { $0 += 1 } }
                        reactor.post { posts.update { $0[thread, default: []].append(index) } }
                    }
                }
            }
            let all = await eventually {
                fired.value == threads * each && posts.value.values.reduce(0) { $0 + $1.count } == threads * each
            }
            #expect(all, "\(fired.value) timers fired, \(posts.value.values.reduce(0) { $0 + $1.count }) posts ran of \(threads * each)")
            #expect(posts.value.values.allSatisfy { $0 == Array(0..<each) })
            reactor.cancel(far)
        }
    }

    // MARK: - Stopping

    @Test func aStoppedReactorEndsItsThreadAndRefusesRegistrations() async throws {
        let reactor = Reactor(name: "test-stopping")
        let pipe = try Pipe()
        defer { pipe.close() }
        _ = try reactor.register(pipe.read) { _ in }
        #expect(await roundTrip(reactor))
        #expect(threadNames().contains("test-stopping"))
        reactor.stop()
        #expect(await eventually { !threadNames().contains("test-stopping") })
        #expect(throws: SystemError.self) { try reactor.register(pipe.read) { _ in } }
        let ran = LockedValue(false)
        reactor.post { ran.set(true) }
        #expect(!ran.value)
    }

    private func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }
}
