import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The engine a command of this user would hand its work to: the user's own (`$XDG_RUNTIME_DIR`),
/// else the machine's (`/run/installtop.sock`), asked who it is (`about`). `installtop apt` runs
/// its job there when the record and root match (`APTEngineRoute`); `installtop history` shows
/// that engine's history, where those jobs are recorded.
enum MachineEngine {
    enum Lookup {
        /// An engine of this user answered: a connection to it, and what it said.
        case found(EngineClient, EngineIdentity)
        /// No engine listens, or only root's, which this user may at most watch.
        case none
        /// One is there but cannot be used; the text says why (another user's, it does not
        /// answer, it is older than `about`, …).
        case unusable(String)
    }

    /// Looks for the engine; an engine that does not say who it is within `timeout` (twice that
    /// when it answers nothing at all: `EngineClient.request`) is `.unusable`.
    static func find(timeout: Duration, environment: [String: String] = ProcessInfo.processInfo.environment) -> Lookup {
        let client: EngineClient
        do {
            client = try SocketLocation.connectForClient(nil, environment: environment) { path throws(DaemonError) in
                try EngineClient(path: path)
            }
        } catch .noEngine, .noEngineFound, .notAdmitted {
            // Nothing listens, or root's engine keeps this user out: no engine of this user's.
            return .none
        } catch .engineOfAnotherUser(let path, let uid) {
            return .unusable("the engine at \(path) runs as uid \(uid), not as you")
        } catch {
            return .unusable("the machine's engine cannot be reached (\(error))")
        }
        do throws(DaemonError) {
            let reply = try client.request(.about, timeout: timeout)
            let identity: EngineIdentity
            do throws(WireError) {
                identity = try EngineIdentity(reply: reply)
            } catch {
                throw .unexpectedMessage(error.message)
            }
            // root's engine admits its watch group: watching is not running jobs there.
            guard identity.uid == geteuid() else {
                client.close()
                return .none
            }
            return .found(client, identity)
        } catch .refused(let refusal) where refusal.code == .unknownCommand {
            client.close()
            return .unusable("the engine at \(client.path) is older than this installtop and cannot take the job")
        } catch .noAnswer(_, let waited) {
            client.close()
            return .unusable("the machine's engine at \(client.path) did not answer within \(waited.components.seconds) s (hung, or stopped)")
        } catch {
            client.close()
            return .unusable("the machine's engine at \(client.path) cannot take the job (\(error))")
        }
    }
}
