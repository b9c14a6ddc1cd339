#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import InstallEngine

/// The steps of one host's package job on its own engine over ssh that a rollout from the
/// command line (`installtop apt upgrade --hosts`, `APTHostsUpgrade`) and a patch night
/// (`APTNightHostRunner`) share: planning it held, following it to its end once confirmed, and
/// declining it. What follows an armed run's window is `ArmedHostFollower`.
enum HostUpgradeStep {
    /// Submits `submission` to `command`'s host without a yes and reads its held plan from the
    /// engine's snapshot; the connection stays open (subscribed) to follow the job.
    static func plan(_ submission: JobSubmission, on command: SSHCommand) -> APTHostPlan {
        let client: EngineClient
        do throws(DaemonError) {
            client = try EngineClient(ssh: command)
        } catch {
            return .failed(EngineTarget.host(command).describe(error))
        }
        do throws(DaemonError) {
            let reply = try client.request(.submit([submission]), timeout: DaemonRequest.replyTimeout)
            guard let job = reply.fields["jobs"]?.arrayValue?.first?.intValue else {
                client.close()
                return .failed("submit's reply names no job")
            }
            try client.send(.subscribe)
            while let message = try client.nextMessage(timeout: DaemonRequest.replyTimeout) {
                if case .event(let event) = message, case .jobQueued(let descriptor) = event.kind, descriptor.id == job {
                    return .held(client: client, job: job, descriptor: descriptor)
                }
                if case .snapshotEnd = message { break }
            }
            client.close()
            return .failed("its engine's queue does not show job \(job)")
        } catch .refused(let refusal) where refusal.code == .nothingToDo {
            client.close()
            return .upToDate
        } catch {
            client.close()
            return .failed(error.description)
        }
    }

    /// Confirms `job` (unless `confirming` is false: a job confirmed before, whose events the
    /// connection already carries) and follows its events to its end. A failure is said with
    /// the words of the first package that failed (apt's or dpkg's own line), else the job's
    /// one word. `endedAt` is when the job completed, on the host's clock (an armed job's
    /// window is armed after it); `nil` when it never completed.
    static func follow(client: EngineClient, job: Int, host: String,
                       confirming: Bool = true) -> (outcome: APTHostsUpgrade.Outcome, endedAt: Date?) {
        var firstFailure: String?
        do throws(DaemonError) {
            if confirming { try client.send(.job(.confirm(job: job))) }
            while let message = try client.nextMessage() {
                switch message {
                case .reply(let reply):
                    if let error = reply.error { return (.failed(error.message), nil) }
                case .event(let event) where event.job == job:
                    switch event.kind {
                    case .updateCompleted(let completion) where completion.result.resultCode == .failed:
                        let said = completion.updateID + (completion.result.reason.map { ": \($0)" } ?? "")
                        if firstFailure == nil { firstFailure = said }
                        StandardOutput.stdout.line("\(host): \(completion.updateID) failed" + (completion.result.reason.map { ": \($0)" } ?? ""))
                    case .jobCompleted(let completion):
                        // The word the board and `status` give the same job.
                        let shown = firstFailure == nil ? completion.result.shownResultCode : .failed
                        let outcome: APTHostsUpgrade.Outcome = shown == .succeeded ? .succeeded
                            : .failed(firstFailure.map { "\(shown.word) (\($0))" } ?? shown.word)
                        return (outcome, event.time)
                    case .jobCleanedUp:
                        return (.failed("its job left the queue before it ended"), nil)
                    default:
                        break
                    }
                default:
                    break
                }
            }
            return (.failed("its link closed before its job ended"), nil)
        } catch {
            return (.failed(error.description), nil)
        }
    }

    /// Declines held job `job`, which then runs nothing, waiting for the engine's reply (ssh
    /// ended at once could drop the line); a failure to say so leaves it held, where it also
    /// runs nothing.
    static func decline(client: EngineClient, job: Int) {
        _ = try? client.request(.job(.decline(job: job)), timeout: DaemonRequest.replyTimeout)
    }
}
