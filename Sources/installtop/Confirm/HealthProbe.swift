#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import InstallDrivers
import InstallHistory
import TextBasics

/// The host's health as a commit-confirmed job checks it before and after (Documentation/COMMIT-CONFIRMED.md):
/// systemd's failed units (when systemd runs), the listening TCP ports, `sshd -t` when sshd is
/// installed, the executables of the operator's checks folder and each `--check` command. A
/// command check passes when it exits 0 within `commandTimeout`.
struct HealthProbe {
    /// The `--check` commands, run with `/bin/sh -c`.
    var commands: [String]
    /// The operator's checks folder (`--checks-dir`); a missing folder holds no checks.
    var checksDirectory: String
    var sshd = "/usr/sbin/sshd"
    var commandTimeout: Double = 60
    var systemd = SystemdTools.current()

    /// Every check's observation now, in a fixed order.
    func observe() -> [HealthObservation] {
        var observations = [failedUnits(), listeningPorts()]
        if FileManager.default.isExecutableFile(atPath: sshd) { observations.append(command("sshd -t", [sshd, "-t"])) }
        for check in operatorChecks() { observations.append(command(check, [check])) }
        for check in commands { observations.append(command(check, ["/bin/sh", "-c", check])) }
        return observations
    }

    /// The executables of the checks folder, by name; hidden files and backups (`~`) left out.
    func operatorChecks() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: checksDirectory)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix("~") }.sorted()
            .map { checksDirectory + "/" + $0 }
            .filter { path in
                var status = stat()
                return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
            }
    }

    private func failedUnits() -> HealthObservation {
        guard systemd.running else {
            return .notRun(HealthComparison.failedUnits, because: "systemd is not running here")
        }
        let listing = SystemCommand.run([systemd.systemctl, "list-units", "--state=failed", "--plain", "--no-legend", "--no-pager"])
        guard listing.status == 0 else {
            return .notRun(HealthComparison.failedUnits, because: "systemctl failed: \(Self.firstLine(listing.stderr, status: listing.status))")
        }
        let units = listing.stdout.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).first }
        return .seen(HealthComparison.failedUnits, units.map(String.init))
    }

    private func listeningPorts() -> HealthObservation {
        guard let ports = ListeningPorts.now() else {
            return .notRun(HealthComparison.listeningPorts, because: "/proc/net/tcp cannot be read")
        }
        return .seen(HealthComparison.listeningPorts, ports)
    }

    /// `arguments` run to its end, killed after `commandTimeout`.
    private func command(_ name: String, _ arguments: [String]) -> HealthObservation {
        let cancellation = CommandCancellation()
        let timer = DispatchWorkItem { cancellation.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + commandTimeout, execute: timer)
        let result = SystemCommand.run(arguments, cancellation: cancellation)
        timer.cancel()
        if result.status == 0 { return HealthObservation(check: name, passed: true) }
        let detail = cancellation.isCancelled ? "killed after \(Int(commandTimeout))s"
            : Self.firstLine(result.stderr.isEmpty ? result.stdout : result.stderr, status: result.status)
        return HealthObservation(check: name, passed: false, detail: detail)
    }

    /// `exit status 1: its first line`.
    static func firstLine(_ output: String, status: Int32) -> String {
        // sshd ends its messages with "\r\n".
        let line = output.split(whereSeparator: \.isNewline).first.map { String($0.trimmingSpaces.prefix(200)) } ?? ""
        let what = status == -1 ? "could not start" : "exit status \(status)"
        return line.isEmpty ? what : "\(what): \(line)"
    }

    /// `listening TCP ports: 4; sshd -t: passed; …`: one line that says what the baseline saw.
    static func summary(_ observations: [HealthObservation]) -> String {
        observations.map { observation in
            observation.isSet && observation.ran ? "\(observation.check): \(observation.items.count)" : "\(observation.check): \(observation.text)"
        }.joined(separator: "; ")
    }
}
