import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Where an `installtop apt …` job runs (Documentation/APT-JOBS.md "Where it runs"): in the
/// machine's engine when one answers, runs as this user, records into a history and acts on the
/// apt root this command would have used; here otherwise. So the transaction has one record
/// (the engine's, with its kept versions), outlives the terminal, and shows on every monitor
/// attached to that engine.
///
/// A command given `--no-history`, `--chroot`, or a `--history-db` or `--apt-config` other than
/// the engine's runs here without a word: the operator asked for that record or root. An engine
/// that is there but cannot take the job (another user's, hung, older than `about`) is said so
/// on stderr, and the job runs here.
enum APTEngineRoute {
    case engine(EngineClient, EngineIdentity)
    case here

    /// Closes the link to the engine, when there is one: for a caller that found it and then
    /// runs nothing.
    func close() {
        if case .engine(let client, _) = self { client.close() }
    }

    /// How long the engine may take to say who it is before it is taken for hung.
    static let aboutTimeout: Duration = .seconds(3)

    /// Finds the engine for `options`' job; `jobName` starts what is said on stderr.
    static func find(for options: APTOptions, jobName: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> APTEngineRoute {
        // Off a terminal without --yes nothing runs (the plan is printed): no engine is needed.
        guard options.yes || OutputMode(options: options.run) == .monitor else { return .here }
        guard options.chroot == nil, !options.run.history.noHistory else { return .here }
        let client: EngineClient
        let identity: EngineIdentity
        switch MachineEngine.find(timeout: aboutTimeout, environment: environment) {
        case .found(let found, let answered):
            client = found
            identity = answered
        case .none:
            return .here
        case .unusable(let reason):
            say(jobName, reason)
            return .here
        }
        guard let history = identity.history,
              options.run.history.historyDb.map(EngineIdentity.absolute) ?? history == history,
              aptConfig(of: options, environment: environment) == identity.aptConfig else {
            client.close()
            return .here
        }
        return .engine(client, identity)
    }

    /// The apt configuration the job would use, as the engine says its own: `--apt-config`, else
    /// `APT_CONFIG`, absolute; `nil` for this system's apt.
    private static func aptConfig(of options: APTOptions, environment: [String: String]) -> String? {
        EngineIdentity.aptRoot(given: options.aptConfig, environment: environment)
    }

    private static func say(_ jobName: String, _ reason: String) {
        StandardOutput.stderr.line("installtop: \(jobName): \(reason); it runs here, and ends with this terminal")
    }
}
