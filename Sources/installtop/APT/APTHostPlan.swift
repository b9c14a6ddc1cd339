import EngineDaemon
import InstallEngine

/// What one host's engine made of a rollout's `apt upgrade` (`APTHostsUpgrade`): its planned
/// job held awaiting confirmation, with the connection that follows it; nothing to upgrade;
/// or why nothing was queued.
enum APTHostPlan: Sendable {
    case held(client: EngineClient, job: Int, descriptor: JobDescriptor)
    case upToDate
    case failed(String)
}
