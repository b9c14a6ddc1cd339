#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import InstallHistory

/// `installtop bridge --keep-shell NAME …` on a host: keeps the recording of a shell the board
/// opened there (read from stdin, as the board recorded it) in the history of the engine the
/// bridge reaches, as a run of kind `shell` with its start, end and exit status, so that the
/// host's own history lists it and `installtop replay RUN` plays it there. The engine says
/// where its history is (`about`); the run is written into that database by this process,
/// as `installtop apt` writes one beside a running engine.
struct HostShellKeeping {
    /// The most a recording may be: the board sends it whole, and a bigger one stays on the
    /// admin machine only.
    static let largest = 64 << 20

    let host: String
    let startedAt: Date
    let endedAt: Date
    let exitStatus: Int32
    let reason: String?

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Keeps `recording` in the history of the engine `client` reaches; returns its run.
    func keep(_ recording: Data, engine client: EngineClient) throws(Refusal) -> Int64 {
        guard recording.count <= Self.largest else { throw Refusal(description: "the recording is over \(Self.largest >> 20) MiB") }
        let identity: EngineIdentity
        do {
            identity = try EngineIdentity(reply: try client.request(.about, timeout: .seconds(30)))
        } catch {
            throw Refusal(description: "its engine did not say where its history is: \(error)")
        }
        guard let path = identity.history else { throw Refusal(description: "its engine keeps no history (--no-history)") }
        do {
            let store = try HistoryStore(path: path, createIfMissing: false)
            let run = try store.reserveShellRun(host: host, startedAt: startedAt)
            let file = store.shellRecording(run: run)
            do {
                guard FileManager.default.createFile(atPath: file, contents: recording, attributes: [.posixPermissions: 0o600]) else {
                    throw Refusal(description: "\(file) cannot be written")
                }
            } catch let refusal as Refusal {
                try? store.finishShellRun(run, host: host, startedAt: startedAt, endedAt: endedAt, exitStatus: exitStatus,
                                          reason: "its recording could not be kept: \(refusal.description)")
                throw refusal
            }
            try store.finishShellRun(run, host: host, startedAt: startedAt, endedAt: endedAt, exitStatus: exitStatus, reason: reason)
            return run
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(description: "its history \(path): \(error)")
        }
    }
}
