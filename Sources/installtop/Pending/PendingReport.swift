#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallDrivers
import TerminalUI
import RestartScan

/// What `installtop pending` prints: the summary line, then a line per package, as
/// `apt list --upgradable` and apt-dater list them; for hosts, a section per host.
enum PendingReport {
    /// `12 pending · 3 security · …`, then `name  old → new  security  origin` for each
    /// pending package in apt's order and `name  installed → available  held back: reason`
    /// for each held-back one; the packages dpkg left half-way with the command that finishes
    /// them; the restart advice under `Restarts` when something needs a restart or a reboot
    /// (as `installtop restarts` says it); a problem's every line after `could not compute:`.
    static func text(_ snapshot: PendingSnapshot, computing: Bool = false, now: Date, sanitizer: TextSanitizer, width: Int?) -> String {
        if let problem = snapshot.problem {
            return "could not compute: " + sanitizer.sanitize(problem).split(separator: "\n").joined(separator: "\n  ") + "\n"
        }
        var text = sanitizer.sanitize(snapshot.summary(now: now)) + "\n"
        if computing { text += "(a newer snapshot is being computed)\n" }
        var rows = snapshot.packages.map { package in
            // The origin last: the long column a narrow terminal cuts, never the word security.
            [package.name, package.versionText, package.isSecurity ? "security" : "", package.origin].map { sanitizer.sanitize($0) }
        }
        rows += snapshot.heldBack.map { package in
            [package.name, "\(package.installedVersion) → \(package.availableVersion)", "held back: " + package.reason.text, ""].map { sanitizer.sanitize($0) }
        }
        var table = TextTable.render(rows, width: width)
        if !snapshot.notFullyInstalled.isEmpty {
            // What dpkg left half-way, and the command that finishes every state of it.
            let finish = sanitizer.sanitize(snapshot.finishCommandText)
            table += "not fully installed (\(finish) finishes them once what stopped them is fixed):\n"
                + snapshot.notFullyInstalled.map { "  " + sanitizer.sanitize($0) + "\n" }.joined()
        }
        if let advice = snapshot.restarts, advice.needsAction {
            table += "\nRestarts\n" + RestartAdviceText.report(advice, sanitizer: sanitizer, width: width)
        }
        return text + table
    }

    /// `== web1 ==` and the host's text, or `unreachable: <why>`; a blank line between hosts.
    static func text(_ hosts: [HostPending], now: Date, sanitizer: TextSanitizer, width: Int?) -> String {
        hosts.map { host -> String in
            let heading = "== \(sanitizer.sanitize(host.host)) ==\n"
            switch host {
            case .reachable(_, let snapshot, let computing):
                return heading + text(snapshot, computing: computing, now: now, sanitizer: sanitizer, width: width)
            case .unreachable(_, let reason):
                return heading + "unreachable: \(sanitizer.sanitize(reason))\n"
            }
        }.joined(separator: "\n")
    }

    /// `{"hosts":[{"host":"web1","reachable":true,"computing":false,"snapshot":{…}},{"host":"web2","reachable":false,"error":"…"}]}`.
    static func json(_ hosts: [HostPending]) -> String {
        HostsJSON.json(hosts, name: \.host, unreachable: { if case .unreachable(_, let reason) = $0 { reason } else { nil } }) { host, object in
            guard case .reachable(_, let snapshot, let computing) = host else { return }
            object.add("computing", computing)
            object.addRaw("snapshot", PendingSnapshotCoding.encode(snapshot))
        }
    }
}
