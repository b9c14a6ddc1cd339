import Foundation
import Glibc
@testable import InstallEngine
import Testing
import TestProcessSupport

@Suite("ProcessBackend: one poller thread watches every child")
struct ProcessBackendPollerTests {
    private let backend = ProcessBackend()

    @Test func a100RunningChildrenAddNoThreadPerChild() async {
        let children = 100
        // The poller's thread starts with the first child; count from after it.
        #expect(await settledOutcome(of: backend.start(.running(.argv(["/bin/true"])), reporter: RecordingReporter())) == .exited(0))
        let threadsBefore = threadCount()
        let reporters = (0..<children).map { _ in RecordingReporter() }
        let running = reporters.map { backend.start(.running(.shell("echo ready; exec sleep 300")), reporter: $0) }
        #expect(await eventually { reporters.allSatisfy { $0.lines(.stdout) == ["ready"] } })
        // Other tests run meanwhile and may add a few threads of their own; a thread per
        // child would add a hundred.
        #expect(threadCount() - threadsBefore < children / 2)
        for update in running { update.kill() }
        for (index, update) in running.enumerated() {
            let outcome = await settledOutcome(of: update)
            #expect(outcome == .signaled(SIGKILL), "child \(index): \(String(describing: outcome)); \(reporters[index].lines(.stderr))")
        }
    }

    @Test("the poller's thread is named, so htop and ps -L show what it is")
    func thePollersThreadIsNamed() async throws {
        #expect(await settledOutcome(of: backend.start(.running(.argv(["/bin/true"])), reporter: RecordingReporter())) == .exited(0))
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
        // Every ProcessBackend has a poller, and tests running beside this one in the process
        // have backends of their own: the thread is named if any thread has the name, since all
        // pollers name themselves in the same place (one poller for many children is
        // a100RunningChildrenAddNoThreadPerChild's to show).
        #expect(names.contains("installtop-poll\n"), "\(names)")
    }

    @Test func aChildFloodingItsOutputHoldsUpNoOtherChild() async {
        let flood = backend.start(.running(.argv(["yes", "flood"])), reporter: CountingReporter())
        let quick = RecordingReporter()
        let running = backend.start(.running(.shell("echo done; echo progress 50 >&3; exit 7")), reporter: quick)
        #expect(await settledOutcome(of: running) == .exited(7))
        #expect(quick.lines(.stdout) == ["done"])
        #expect(quick.channelReports == [.progress(percent: 50, message: nil)])
        flood.kill()
        #expect(await settledOutcome(of: flood) == .signaled(SIGKILL))
    }

    @Test func childrenWithAndWithoutAPidfdAreWatchedSideBySide() async {
        let withoutPidfd = ProcessBackend(watchesExitWithPidfd: false)
        let reporters = (0..<20).map { _ in RecordingReporter() }
        let running = reporters.indices.map { index in
            (index.isMultiple(of: 2) ? backend : withoutPidfd)
                .start(.running(.shell("echo child \(index); sleep 0.\(index % 3); exit \(index)")), reporter: reporters[index])
        }
        for index in running.indices {
            #expect(await settledOutcome(of: running[index]) == .exited(Int32(index)))
            #expect(reporters[index].lines(.stdout) == ["child \(index)"])
        }
    }

    @Test("a subscriber that blocks holds up no child: the poller thread never delivers events")
    func aBlockedSubscriberHoldsUpNoChild() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-poller-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let queue = JobQueue(backend: backend, concurrency: 2,
                             configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker"))
        let release = DispatchSemaphore(value: 0)
        let blocked = LockedValue(false)
        queue.subscribe { event in
            // The first progress report blocks its deliverer, as a history write stuck on a
            // lock would, for at most 30 s.
            guard case .progress = event.kind, !blocked.value else { return }
            blocked.set(true)
            _ = release.wait(timeout: .now() + 30)
        }
        defer { release.signal() }
        // Its children are killed also when an expectation below ends the test early (one was
        // left waiting for `go` once).
        defer { queue.abortAll(force: true) }
        // Running before delivery blocks (a new update starts only once its start is delivered):
        // it floods more than a pipe holds once `go` exists, and cannot exit unless read.
        try queue.submit(name: "floods", updates: [Update(id: "b", installCommand: .shell(
            "echo $$ > \(folder)/b.pid; while [ ! -e \(folder)/go ]; do sleep 0.05; done; head -c 2000000 /dev/zero | tr '\\0' x; echo"))])
        let pid = try #require(await pidWritten(to: folder + "/b.pid"))
        try queue.submit(name: "blocks", updates: [Update(id: "a", installCommand: .shell("echo progress 10 >&3; exec sleep 300"))])
        #expect(await eventually { blocked.value }, "the subscriber blocked")
        try Data().write(to: URL(fileURLWithPath: folder + "/go"))
        #expect(await eventually { processIsGone(pid) }, "the flooding child exited while the subscriber was blocked")
        release.signal()
        queue.abortAll(force: true)
        await queue.waitUntilIdle()
    }

    /// The `Threads:` line of /proc/self/status.
    private func threadCount() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
}
