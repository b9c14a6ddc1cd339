import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// One namespace host (h1, Documentation/FLEET-FACTS.md) whose sshd includes a drop-in folder,
/// with its own engine (`installtop serve` on the default socket in its /run, recording a
/// history) over `SSHDTweakLab`'s private apt root: `lab-sshd-tweak` 1.0 installed, 2.0
/// published, whose postinst breaks the host's sshd when the engine upgrades it. For a rollout
/// from the controller namespace over real ssh, whose run the engine arms and reverts.
final class BrokenSSHDHost {
    let fleet: FleetTestHosts
    let folder: EndToEndFolder
    let lab: SSHDTweakLab
    let sshd: FleetHostSSHD
    /// h1's `installtop serve`; nil once `tearDown` ended it.
    private(set) var engine: InstalltopChild?
    private var tornDown = false

    init() throws {
        let folder = try EndToEndFolder()
        let fleet: FleetTestHosts
        do {
            fleet = try FleetTestHosts(count: 1, sshdDropIns: true)
        } catch {
            folder.remove()
            throw error
        }
        var lab: SSHDTweakLab?
        do {
            let sshd = try fleet.sshd(host: 1)
            let namespace = try fleet.run(onHost: 1, "readlink /proc/self/ns/net")
            guard namespace.status == 0, namespace.stdout.hasPrefix("net:[") else {
                throw EndToEndError("h1's network namespace: \(namespace.stdout)\(namespace.stderr)")
            }
            let made = try SSHDTweakLab(sshd: sshd, networkNamespace: namespace.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            lab = made
            try made.installVersionOneThenPublishTwo()
            // The engine runs in h1's namespaces, so that the postinsts it runs may restart h1's
            // sshd; InstalltopChild keeps it from handing this machine's systemd a timer.
            engine = try fleet.serve(onHost: 1, apt: made.apt, folder: folder, history: made.database)
            self.sshd = sshd
            self.lab = made
        } catch {
            fleet.tearDown()
            lab?.remove()
            folder.remove()
            throw error
        }
        self.fleet = fleet
        self.folder = folder
    }

    deinit {
        tearDown()
    }

    /// The engine's log so far.
    var engineLog: String { engine?.stderr ?? "" }

    /// Whether the engine says it listens (polled, for up to 180 s).
    func waitUntilServing() async -> Bool {
        guard let engine else { return false }
        return await EndToEndFolder.eventually { engine.stderr.contains("serving on \(FleetTestHosts.engineSocket)") }
    }

    /// The newest run with a window in the engine's history (`history --jobs --json`), with
    /// the run's own fields (`run`, `undoneBy`) and its window under `confirm`.
    func armedRun() async throws -> [String: Any]? {
        let listed = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", lab.database], in: folder)
        // One run a line, newest first.
        let runs = listed.stdout.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        return runs.first { $0["confirm"] is [String: Any] }
    }

    /// Polls the history until the armed run's window is in `state`, for up to `timeout`; the
    /// run when it is.
    func waitForWindow(_ state: String, timeout: Duration = .seconds(180)) async -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let run = try? await armedRun(), (run["confirm"] as? [String: Any])?["state"] as? String == state { return run }
            try? await Task.sleep(for: .milliseconds(300))
        }
        return nil
    }

    /// A fresh ssh login from the controller namespace (no shared connection) running
    /// `hostname`, polled until it works or `timeout` passes: the last attempt.
    func freshLogin(timeout: Duration = .seconds(90)) async -> FleetCommand? {
        let deadline = ContinuousClock.now + timeout
        var last: FleetCommand?
        while ContinuousClock.now < deadline {
            last = try? await FleetCommand.run(try fleet.sshCommand(toHost: 1, "hostname"), timeout: .seconds(30))
            if last?.status == 0 { return last }
            try? await Task.sleep(for: .milliseconds(300))
        }
        return last
    }

    /// sshd's log of h1 (the harness's listener and those the postinsts started).
    var sshdLog: String {
        String(decoding: FileManager.default.contents(atPath: sshd.log) ?? Data(), as: UTF8.self)
    }

    /// The pid in h1's sshd pid file, if a process has it: the running listener.
    var listener: pid_t? {
        let text = String(decoding: FileManager.default.contents(atPath: sshd.pidFile) ?? Data(), as: UTF8.self)
        guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, 0) == 0 else { return nil }
        return pid
    }

    /// Ends the engine (SIGTERM, SIGKILL after 5 s; an engine that ended before is recorded as
    /// an issue), then the fleet's namespaces and processes (the sshd a postinst started among
    /// them), the lab and the folder. Idempotent.
    func tearDown() {
        guard !tornDown else { return }
        tornDown = true
        if let status = engine?.poll() {
            Issue.record("h1's installtop serve ended before the teardown with status \(status); its stderr:\n\(engineLog)")
        }
        engine = nil
        fleet.tearDown()
        lab.remove()
        folder.remove()
    }
}
