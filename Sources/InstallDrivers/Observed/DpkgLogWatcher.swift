import Dispatch
import InstallEngine
import Synchronization

/// Shows the installs the hooks do not report (Documentation/OBSERVED-JOBS.md "Without hooks"): while
/// a process holds dpkg's lock, what dpkg's log says it does becomes an observed job, with
/// phases and a partial plan: one update per package the log or the running dpkg's command line
/// names before the job appears, and one added (with the log's versions) for each package the
/// log names later (rule 28). The job ends, and its
/// packages get their results from dpkg's final state, when the holder is gone, as for every
/// observed job. When the hooks report the same process, their job is the only one.
///
/// It polls on a queue of its own, reading only what the log got since the last poll.
public final class DpkgLogWatcher: Sendable {
    private struct Tracked {
        var holder: LockHolder
        var transaction: ObservedTransaction?
        /// The packages named so far, in order, while there is no job yet.
        var changes: [PackageChange] = []
        /// Lines read before the job existed: it gets them when it appears.
        var lines: [DpkgStatusLine] = []
    }

    private struct State {
        var follower: DpkgLogFollower
        var tracked: Tracked?
        var stopped = false
    }

    /// The lines kept for a holder that has no job yet; more are dropped (a log of a transaction
    /// whose packages were never named is no job's).
    private static let lineLimit = 10_000

    private let observed: ObservedTransactions
    private let source: DpkgLogSource
    private let interval: DispatchTimeInterval
    private let state: Mutex<State>
    private let polls = DispatchQueue(label: "installtop.dpkg-log")

    /// Starts following `source`. When its lock is held already, the log is read back (up to a
    /// megabyte) to the holder's start, so a transaction under way when the engine starts is
    /// shown from its beginning.
    public init(observed: ObservedTransactions, source: DpkgLogSource, interval: DispatchTimeInterval = .milliseconds(250)) {
        self.observed = observed
        self.source = source
        self.interval = interval
        let held: Bool
        if case .held(let pid) = DpkgLock.state(administrativeDirectory: source.administrativeDirectory), pid > 0 { held = true } else { held = false }
        state = Mutex(State(follower: DpkgLogFollower(path: source.logPath, startingAt: held ? 1 << 20 : 0)))
        polls.async { [self] in poll() }
    }

    /// Stops following (the job shown, if any, still ends when its holder does). Idempotent.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            state.follower.close()
            release(&state)
        }
    }

    /// The job followed so far has had its last lines from the log.
    private func release(_ state: inout State) {
        if let tracked = state.tracked, tracked.transaction != nil { observed.logEnded(tracked.holder) }
        state.tracked = nil
    }

    private func poll() {
        let stopped = state.withLock { state -> Bool in
            guard !state.stopped else { return true }
            let lines = state.follower.read().compactMap(DpkgLogLine.init)
            follow(lines, state: &state)
            return false
        }
        guard !stopped else { return }
        polls.asyncAfter(deadline: .now() + interval) { [self] in poll() }
    }

    private func follow(_ lines: [DpkgLogLine], state: inout State) {
        guard case .held(let pid) = DpkgLock.state(administrativeDirectory: source.administrativeDirectory), pid > 0 else {
            // Free: the job, if any, gets the last lines; its end comes with its process's.
            state.tracked?.transaction?.receive(lines.compactMap(\.status), known: lines.compactMap(\.change))
            release(&state)
            return
        }
        var tracked: Tracked
        if let current = state.tracked, current.holder.initiator.pid == pid {
            tracked = current
        } else {
            state.tracked?.transaction?.receive(lines.compactMap(\.status), known: lines.compactMap(\.change))
            release(&state)
            guard let holder = LockHolder(pid: pid) else { return }
            tracked = Tracked(holder: holder)
        }
        let since = tracked.holder.logTime ?? ""
        let own = lines.filter { $0.time >= since }
        if tracked.transaction == nil {
            for line in own { if let change = line.change { Self.add(change, to: &tracked.changes) } }
            for line in own {
                if case .processing("configure", let package)? = line.status { Self.add(PackageChange(package: package, action: .install), to: &tracked.changes) }
            }
            let running = tracked.holder.dpkgProcesses()
            let named = running.flatMap { Self.changes(inDpkgArguments: $0.arguments) }
                .filter { change in !tracked.changes.contains { $0.package == change.package } }
            for change in Self.versioned(named, administrativeDirectory: source.administrativeDirectory) { Self.add(change, to: &tracked.changes) }
            tracked.lines += own.compactMap(\.status)
            if tracked.lines.count > Self.lineLimit { tracked.lines.removeFirst(tracked.lines.count - Self.lineLimit) }
            let dpkg = running.first { $0.pid != pid }?.pid
            tracked.transaction = observed.fromLog(
                tracked.holder, changes: tracked.changes, administrativeDirectory: source.administrativeDirectory, dpkg: dpkg)
            if let transaction = tracked.transaction {
                transaction.receive(tracked.lines)
                tracked.lines = []
            }
        } else if observed.fromLog(tracked.holder, changes: [], administrativeDirectory: source.administrativeDirectory, dpkg: nil) != nil {
            tracked.transaction?.receive(own.compactMap(\.status), known: own.compactMap(\.change))
        } else {
            // The hooks report it now: theirs are the lines the job gets.
            tracked.transaction = nil
        }
        state.tracked = tracked
    }

    /// Adds `change` once per package; a line of the log says more than a command line's word.
    private static func add(_ change: PackageChange, to changes: inout [PackageChange]) {
        guard let index = changes.firstIndex(where: { $0.package == change.package }) else {
            changes.append(change)
            return
        }
        if changes[index].newVersion == nil && changes[index].oldVersion == nil { changes[index] = change }
    }

    /// `changes` from dpkg's arguments with what dpkg's database says of each before dpkg's log
    /// does: an archive of a package installed at another version is an upgrade from the version
    /// it had (`Config-Version` once dpkg has unpacked the new one), a removal gets its version.
    private static func versioned(_ changes: [PackageChange], administrativeDirectory: String) -> [PackageChange] {
        guard !changes.isEmpty else { return [] }
        let query = SystemCommand.run(["/usr/bin/dpkg-query", "--admindir=\(administrativeDirectory)", "-W",
                                       "-f=${Package} ${db:Status-Abbrev} ${Version} ${Config-Version}\n"] + changes.map(\.package))
        var installed: [String: String] = [:]
        for line in query.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let name = String(fields[0].split(separator: ":").first ?? fields[0])
            // Fully installed: its version; half-way (the new one unpacked): the one configured before.
            if fields[1] == "ii" {
                installed[name] = String(fields[2])
            } else if fields.count >= 4, fields[1].hasPrefix("i") {
                installed[name] = String(fields[3])
            }
        }
        return changes.map { change in
            var change = change
            guard let old = installed[change.package] else { return change }
            change.oldVersion = old
            if change.action == .install, let new = change.newVersion { change.action = old == new ? .reinstall : .upgrade }
            return change
        }
    }

    /// The packages a dpkg command line names: `.deb` files (`name_version_arch.deb`, as apt
    /// names its archives) and the packages after `--configure`, `--remove` or `--purge`.
    static func changes(inDpkgArguments arguments: [String]) -> [PackageChange] {
        var action: PackageChange.Action?
        var changes: [PackageChange] = []
        for word in arguments.dropFirst() {
            switch word {
            case "--configure": action = .install
            case "--remove", "-r": action = .remove
            case "--purge", "-P": action = .purge
            case "--unpack", "--install", "-i": action = nil
            default:
                if word.hasSuffix(".deb") {
                    let file = word.split(separator: "/").last.map(String.init) ?? word
                    let fields = file.dropLast(".deb".count).split(separator: "_")
                    guard fields.count == 3 else { continue }
                    changes.append(PackageChange(
                        package: String(fields[0]), action: .install,
                        newVersion: fields[1].split(separator: "%3a", omittingEmptySubsequences: false).joined(separator: ":"),
                        architecture: String(fields[2])))
                } else if let action, !word.hasPrefix("-") {
                    changes.append(PackageChange(package: String(word.split(separator: ":").first ?? Substring(word)), action: action))
                }
            }
        }
        return changes
    }
}
