import FleetTestSupport
import Foundation

/// The grouped board in tmux, attached from the controller namespace to namespace test hosts
/// over the fleet's ssh_config, and what the tests read off its screen.
enum BoardScreen {
    /// `installtop attach --host NAME…` in tmux, run in the controller namespace with
    /// `REMOTEBINARY bridge` as the remote command (the built installtop unless `remoteBinary`
    /// names a copy another user can run). Its stderr goes to `attach.err` and its exit status
    /// to `rc` in `folder`.
    static func attach(_ hosts: [String], fleet: FleetTestHosts, folder: EndToEndFolder, remoteBinary: String? = nil,
                       width: Int = 120, height: Int = 30) throws -> TmuxSession {
        let binary = try EndToEndFolder.binary()
        let attach = fleet.controllerCommand([binary, "attach"] + hosts.flatMap { ["--host", $0] }
                                             + ["--ssh-config", fleet.sshConfigPath, "--remote-command", "\(remoteBinary ?? binary) bridge"])
        let command = attach.map { "'\($0)'" }.joined(separator: " ")
            + " 2> '\(folder.path("attach.err"))'; \(folder.exitStatus(to: "rc")); sleep 3600"
        return try TmuxSession(width: width, height: height, home: folder.url, command: command)
    }

    /// Host `host`'s row on the board (`▸ h1 …`, or `▾ h1 …` when expanded); empty when it is
    /// not on the screen.
    static func row(_ host: String, in screen: String) -> String {
        screen.split(separator: "\n").first { $0.contains("▸ \(host) ") || $0.contains("▾ \(host) ") }.map(String.init) ?? ""
    }

    /// Whether `host`'s row is that of a host with no job: the not-started mark, and in place
    /// of a job `idle` or what the host would upgrade (`up to date`, `2 pending`).
    static func isIdle(_ host: String, in screen: String) -> Bool {
        let row = row(host, in: screen)
        return row.contains("·▸ \(host) ") && ["idle", "up to date", "pending", "not fully installed", "lists "].contains { row.contains($0) }
            && !["queued", "awaiting", "in dialog"].contains { row.contains($0) }
    }

    /// The first line of `screen` holding `text`; empty when none does.
    static func line(with text: String, in screen: String) -> String {
        screen.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
    }
}
