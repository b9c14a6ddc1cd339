#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RestartScan

/// What an upgrade of one apt root would do, read without dpkg's lock (Documentation/MANY-HOSTS.md "Fleet
/// patching"): the packages it would change, those it would hold back and why, how old apt's
/// lists are, and the restart advice (a newer kernel waiting for a reboot among it).
///
/// When it could not be read (apt missing, a broken root, apt's refusal) it is a snapshot all
/// the same, with `problem` saying why in apt's words, no packages and nothing else known.
public struct PendingSnapshot: Sendable, Hashable {
    /// When it was read.
    public var computedAt: Date
    /// The packages `apt-get upgrade` would install or upgrade, in apt's order.
    public var packages: [PendingPackage]
    /// The installed packages for which a newer version is known that the upgrade would leave
    /// alone, by name.
    public var heldBack: [HeldBackPackage]
    /// When apt last wrote one of its lists (`Dir::State::lists`; an update that finds every
    /// list unchanged writes none); `nil` when they hold no list (never updated), or when the
    /// snapshot has a problem.
    public var listsUpdatedAt: Date?
    /// The root's restart advice as `installtop restarts --root ROOT` gives it; `nil` when the
    /// snapshot has a problem.
    public var restarts: RestartAdvice?
    /// The packages dpkg left half-way (unpacked, half-configured, half-installed, awaiting
    /// triggers, or flagged for reinstallation), by name with dpkg's words: what apt calls "not
    /// fully installed or removed", and what a failed or killed transaction leaves until it is
    /// finished (`dpkg --configure -a`). A host with any is not up to date, whatever it would
    /// upgrade.
    public var notFullyInstalled: [String]
    /// The command that finishes `notFullyInstalled` (`DpkgFinishCommand`): `dpkg --configure
    /// -a` where that finishes every one of them (unpacked, half-configured, waiting for
    /// triggers), `installtop apt repair RUN` or `apt-get install --reinstall P` where a package
    /// needs its archive again (half-installed, reinstall-required). `nil` when nothing is left
    /// half-way, or from an engine older than it (then `dpkg --configure -a` is said).
    public var finishCommand: String?
    /// Why nothing could be read; `nil` for a snapshot that was.
    public var problem: String?

    public init(computedAt: Date, packages: [PendingPackage] = [], heldBack: [HeldBackPackage] = [], notFullyInstalled: [String] = [],
                finishCommand: String? = nil, listsUpdatedAt: Date? = nil, restarts: RestartAdvice? = nil, problem: String? = nil) {
        self.computedAt = computedAt
        self.packages = packages
        self.heldBack = heldBack
        self.notFullyInstalled = notFullyInstalled
        self.finishCommand = finishCommand
        self.listsUpdatedAt = listsUpdatedAt
        self.restarts = restarts
        self.problem = problem
    }

    /// A snapshot that could not be read, saying why.
    public static func failed(_ problem: String, at time: Date) -> PendingSnapshot {
        PendingSnapshot(computedAt: time, problem: problem)
    }

    /// The pending packages that are security updates (`PendingPackage.isSecurity`).
    public var securityCount: Int { packages.count { $0.isSecurity } }

    /// The kernel release installed and newer than the running one, which waits for a reboot
    /// (`RebootReason.newerKernel`); `nil` when none does.
    public var waitingKernel: String? {
        restarts?.rebootReasons.lazy.compactMap { reason -> String? in
            if case .newerKernel(_, let installed) = reason { return installed }
            return nil
        }.first
    }

    /// Nothing to upgrade, nothing held back, nothing left half-way, nothing wrong.
    public var isUpToDate: Bool { problem == nil && packages.isEmpty && heldBack.isEmpty && notFullyInstalled.isEmpty }

    /// What an upgrade would find, the most telling first: `1 not fully installed` (apt's words)
    /// when dpkg left packages half-way, then `12 pending`, `3 security`, `2 held back`; parts
    /// that are zero are left out, and `up to date` stands alone when every part is. The head of
    /// `summary` and of a board host's row.
    public var countParts: [String] {
        var parts = notFullyInstalled.isEmpty ? [] : ["\(notFullyInstalled.count) not fully installed"]
        if !packages.isEmpty || !heldBack.isEmpty {
            parts.append("\(packages.count) pending")
            if securityCount > 0 { parts.append("\(securityCount) security") }
            if !heldBack.isEmpty { parts.append("\(heldBack.count) held back") }
        }
        return parts.isEmpty ? ["up to date"] : parts
    }

    /// `reboot: 6.1.0-28-amd64` for a newer kernel waiting, `reboot required` when the restart
    /// advice needs one for another reason; `nil` when no reboot is needed.
    public var rebootText: String? {
        if let kernel = waitingKernel { return "reboot: \(kernel)" }
        return restarts?.rebootRequired == true ? "reboot required" : nil
    }

    /// The command that finishes what dpkg left half-way, as said beside those packages:
    /// `finishCommand`, or `dpkg --configure -a` from an engine that sent none.
    public var finishCommandText: String { finishCommand ?? "dpkg --configure -a" }

    /// One line for a host's row and the head of `installtop pending`: `12 pending · 3
    /// security · 2 held back · lists 6 days old · reboot: 6.1.0-28`; `up to date · lists 2
    /// hours old`; `1 not fully installed` first when dpkg left packages half-way; `reboot
    /// required` when a reboot is needed for another reason than a kernel; `failed: <the
    /// problem's first line>` when nothing could be read. Parts that are zero are left out,
    /// except the pending count, which stands alone as `up to date` (not said of a host with
    /// packages half-way).
    public func summary(now: Date) -> String {
        if let problem { return "failed: " + (problem.split(separator: "\n").first.map(String.init) ?? problem) }
        return (countParts + [listsAgeText(now: now)] + [rebootText].compactMap { $0 }).joined(separator: " · ")
    }

    /// `lists 6 days old`, `lists 3 hours old`, `lists 12 minutes old`, `lists just updated`
    /// (under a minute, or dated ahead of `now`), `lists never updated`.
    public func listsAgeText(now: Date) -> String {
        guard let listsUpdatedAt else { return "lists never updated" }
        let seconds = Int(now.timeIntervalSince(listsUpdatedAt))
        for (unit, length) in [("day", 86_400), ("hour", 3_600), ("minute", 60)] where seconds >= length {
            let count = seconds / length
            return "lists \(count) \(unit)\(count == 1 ? "" : "s") old"
        }
        return "lists just updated"
    }
}
