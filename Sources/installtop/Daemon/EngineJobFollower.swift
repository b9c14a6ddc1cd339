import EngineDaemon
import EngineWire
import Glibc
import InstallEngine
import Monitor
import MonitorRuntime
import Synchronization

/// One job of an engine elsewhere, followed from this terminal to its end as if it ran here
/// (`installtop apt …` in the machine's engine): the monitor attached to that engine, or the
/// plain lines or JSON events of this job alone; then the summary and the exit status its result
/// gives, as `RunSession` ends a run.
///
/// Off the monitor, SIGINT, SIGTERM and SIGHUP are passed on as the job's abort (a second one
/// forces it) and the job is followed to its end. In the monitor every key acts on the engine's
/// queue, as in `attach`; `q` or `d` detaches, leaving the job to the engine (exit 0), and so does
/// a signal. A job declined (`n` in any attached monitor, `installtop confirm --decline`) exits 1,
/// as a declined plan does here; an engine that goes away before the job ends exits 1, saying so.
struct EngineJobFollower {
    /// The engine's socket.
    let path: String
    let job: Int
    let options: RunOptions
    let engine: EngineIdentity

    func run() -> ExitStatus {
        switch OutputMode(options: options) {
        case .monitor: return followInMonitor()
        case .plain: return followHeadless(json: false)
        case .json: return followHeadless(json: true)
        }
    }

    /// The job's last state, or why it has none: what a follower ends with.
    private enum Ending {
        case completed(JobState)
        case declined
        case detached
        case engineLost(String)
    }

    private func followHeadless(json: Bool) -> ExitStatus {
        let events: EngineClient
        let commands: EngineClient
        do throws(DaemonError) {
            events = try EngineClient(path: path)
            try events.send(.subscribe)
            // Aborts go out on a connection of their own: the other one only reads events.
            commands = try EngineClient(path: path)
        } catch {
            return finish(.engineLost("\(error)"))
        }
        defer {
            events.close()
            commands.close()
        }
        let job = job
        let relay = SignalRelay { signal, count in
            let force = count > 1
            StandardOutput.stderr.line("installtop: \(RunSession.name(of: signal))\(force ? " again" : ""): "
                + (force ? "forcing the abort of job \(job) in the engine" : "aborting job \(job) in the engine (again to force it)"))
            _ = try? commands.send(.job(.abort(job: job, force: force)))
        }
        defer { relay.cancel() }
        let plain = json ? nil : PlainReporter(output: .stdout, sanitizer: TextEnvironment.sanitizer)
        let writer = json ? JSONEventWriter(output: .stdout, includeLogs: options.jsonLogs) : nil
        var model = QueueModel(outputCapacity: 1)
        while true {
            let message: ServerMessage?
            do {
                message = try events.nextMessage()
            } catch {
                return finish(.engineLost("\(error)"))
            }
            guard let message else { return finish(.engineLost("it closed the connection")) }
            guard case .event(let event) = message, event.job == job else { continue }
            model.apply(event)
            plain?.handle(event)
            writer?.handle(event)
            switch event.kind {
            case .jobCompleted:
                if let state = model.job(job) { return finish(.completed(state)) }
            case .jobCleanedUp:
                return finish(.declined)
            default:
                continue
            }
        }
    }

    private func followInMonitor() -> ExitStatus {
        let client: EngineClient
        do throws(DaemonError) {
            client = try EngineClient(path: path)
        } catch {
            return finish(.engineLost("\(error)"))
        }
        do {
            let outcome = try MonitorSession.run(
                link: RemoteEngineLink(client: client), themeOption: options.theme, exitWhenDone: false, followedJob: job,
                message: "job \(job) runs in the engine of pid \(engine.pid): q detaches and it goes on")
            switch outcome {
            case .followedJobEnded(let state?): return finish(.completed(state))
            case .followedJobEnded(nil): return finish(.declined)
            case .quit, .quitWhileRunning: return finish(.detached)
            case .linkLost(let reason): return finish(.engineLost(reason))
            }
        } catch {
            // No monitor (a bad theme was refused before): the job is followed in lines instead.
            StandardOutput.stderr.line("installtop: cannot start the monitor (\(error)); printing lines instead")
            return followHeadless(json: false)
        }
    }

    /// Says how the job ended and returns the exit status it gives.
    private func finish(_ ending: Ending) -> ExitStatus {
        switch ending {
        case .completed(let state):
            let status = ExitStatus(results: Self.result(of: state).map { [$0] } ?? [], unfinished: state.result == nil)
            // JSON ends with the job's `job.completed`, as a run here does.
            if OutputMode(options: options) != .json { RunSession.printSummary(of: [state], status: status) }
            return status
        case .declined:
            StandardOutput.stderr.line("installtop: job \(job): not run: its plan was declined")
            return .failed
        case .detached:
            StandardOutput.stderr.line("installtop: detached: job \(job) goes on in the engine of pid \(engine.pid) (installtop attach watches it)")
            return .succeeded
        case .engineLost(let reason):
            StandardOutput.stderr.line("installtop: job \(job): the engine at \(path) went away before the job ended (\(reason)); "
                + "installtop history --jobs says how it ended")
            return .failed
        }
    }

    /// The job's result with its updates' results: `job.completed` on the wire carries the
    /// job's code only, and the exit status also weighs the updates (an abort after every update
    /// succeeded, an update never reached), which their own events gave the model.
    static func result(of state: JobState) -> InstallationResult? {
        guard var result = state.result else { return nil }
        if result.updateResults.isEmpty { result.updateResults = state.updates.map(\.result) }
        return result
    }
}
