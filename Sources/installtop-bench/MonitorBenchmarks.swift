import Foundation
import InstallEngine
import Monitor

/// Benchmarks of the monitor's pure core: drawing a frame and applying engine events.
enum MonitorBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "monitor-render", run: render),
        Benchmark(name: "monitor-events", run: events),
    ]

    /// A 200×60 frame with 10,000 updates in the queue, as one job and as 100 jobs of 100,
    /// with a running update in the middle (bar, ETA, output). Goal: at most 1 ms per frame.
    static func render() async {
        let theme = ThemeCatalog(userDirectory: nil).themes[0]
        for (jobs, perJob) in [(1, 10_000), (100, 100)] {
            let state = runningState(jobs: jobs, updatesPerJob: perJob)
            var frames: [Duration] = []
            let clock = ContinuousClock()
            var checksum = 0
            for _ in 0..<2_000 {
                let elapsed = clock.measure {
                    checksum &+= MonitorRenderer.render(state, theme: theme).cells.count
                }
                frames.append(elapsed)
            }
            frames.sort()
            let median = milliseconds(frames[frames.count / 2])
            let p99 = milliseconds(frames[frames.count * 99 / 100])
            print("  \(jobs) × \(perJob) updates, 200×60: median \(format(median)) ms, p99 \(format(p99)) ms per frame (goal ≤ 1 ms)")
            // Uses the frames so the optimizer cannot drop the rendering.
            if checksum == 0 { print("  (no cells drawn)") }
        }
    }

    /// Progress and output events applied to a monitor with 10,000 updates.
    static func events() async {
        var state = runningState(jobs: 100, updatesPerJob: 100)
        let job = state.queue.jobs[50].id
        let count = 200_000
        let start = Date()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for step in 0..<count {
                let time = start.addingTimeInterval(Double(step) / 1000)
                let kind: EngineEvent.Kind = step % 4 == 0
                    ? .output(job: job, index: 50, stream: .stdout, line: "line \(step)")
                    : .progress(job: job, index: 50, updatePercent: Double(step % 100), jobPercent: 50, message: "step \(step)")
                _ = state.handle(.engine(EngineEvent(time: time, kind: kind)))
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("  \(count) events into a 10,000-update monitor: \(String(format: "%.0f", Double(count) / seconds)) events/s")
    }

    /// Jobs of `updatesPerJob` updates; the middle job runs its middle update at 42 % with
    /// output, the jobs before it have completed.
    private static func runningState(jobs: Int, updatesPerJob: Int) -> MonitorState {
        var state = MonitorState(width: 200, height: 60, now: Date(timeIntervalSince1970: 0))
        var time = Date(timeIntervalSince1970: 0)
        func send(_ kind: EngineEvent.Kind) {
            time = time.addingTimeInterval(0.001)
            _ = state.handle(.engine(EngineEvent(time: time, kind: kind)))
        }
        let middle = jobs / 2 + 1
        for id in 1...jobs {
            let updates = (0..<updatesPerJob).map { Update(id: "u\(id)-\($0)", title: "Update \($0) of job \(id): libfoo 1.2.\($0)") }
            send(.jobQueued(JobDescriptor(id: id, name: "Job \(id)", operation: .install, updates: updates, stopOnFailure: false)))
        }
        for id in 1..<middle {
            send(.jobStarted(job: id))
            let results = (0..<updatesPerJob).map { _ in UpdateInstallationResult(resultCode: .succeeded, startedAt: time, endedAt: time) }
            send(.jobCompleted(job: id, result: .combining(results, abortRequested: false)))
        }
        send(.jobStarted(job: middle))
        let running = updatesPerJob / 2
        for index in 0..<running {
            send(.updateStarted(job: middle, index: index, updateID: "u\(middle)-\(index)"))
            send(.updateCompleted(job: middle, index: index, updateID: "u\(middle)-\(index)",
                result: UpdateInstallationResult(resultCode: .succeeded, startedAt: time, endedAt: time)))
        }
        send(.updateStarted(job: middle, index: running, updateID: "u\(middle)-\(running)"))
        for line in 0..<100 { send(.output(job: middle, index: running, stream: .stdout, line: "Unpacking part \(line) ...")) }
        for percent in stride(from: 2.0, through: 42, by: 2) {
            send(.progress(job: middle, index: running, updatePercent: percent, jobPercent: 50, message: "Unpacking"))
        }
        // Select the running job so the frame shows its updates.
        while state.selectedJobID != middle, !state.handle(.key(.down)).isEmpty {}
        return state
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
