import Dispatch
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import RestartScan
import Synchronization
import Glibc

/// Every transaction the hooks report (rules 28–31), by the process that runs it: each becomes
/// an observed job on `queue` once its plan (or, without one, its first dpkg lines) is known,
/// and ends at apt's Post-Invoke or when that process is gone, whichever comes first. A
/// transaction carrying an installtop engine's mark (`InstalltopRunMarker`) is that engine's
/// apt job: this engine's own makes no job; another engine's is shown as that engine's job,
/// which `HistoryRecorder` does not record (one transaction, one record).
///
/// `receive` is called on the server's I/O thread: it never waits for a process or the disk;
/// dpkg's final state is read on a queue of its own.
public final class ObservedTransactions: Sendable {
    private struct Entry {
        var initiator: ObservedInitiator
        var transaction: ObservedTransaction?
        /// From the initiator's command line; a plan's `Dir::State::status` wins over it.
        var administrativeDirectory: String
        /// The dpkg run the status lines come from: the transaction is not over while it runs,
        /// even when apt was killed (dpkg runs in a session of its own).
        var dpkg: Int32?
        /// The hooks reported it: dpkg's log is not followed for it.
        var hooked = false
        /// A `DpkgLogWatcher` feeds its job: its end waits for the watcher's `logEnded`, so the
        /// lines dpkg wrote last (a package named last, its final phases) come before it.
        var logFollows = false
        /// Lines the relay said it dropped before there was a job to count them on.
        var dropped = 0
        /// This engine started it (its apt job's apt-get): that job shows it already, so it
        /// never becomes an observed job too.
        var startedHere = false
    }

    private let queue: JobQueue
    private let entries = Mutex<[String: Entry]>([:])
    /// Processes whose transaction the hooks ended (apt's Post-Invoke) while they still run:
    /// dpkg's log, read late, and its last dpkg run's status lines, late too, must not make a
    /// second job of it. Forgotten `lateLinesGrace` after they are gone.
    private let endedByHooks = Mutex<Set<String>>([])
    private let background = DispatchQueue(label: "installtop.observed.ends")
    /// How long after its process is gone a transaction the hooks ended still takes late lines
    /// of its dpkg runs as its own (and a log watcher's call for it as made already).
    static let lateLinesGrace: DispatchTimeInterval = .seconds(10)
    /// How often a transaction's process is looked for in `/proc` (rule 30's pid watch).
    private let watchInterval: DispatchTimeInterval
    /// The dpkg whose log the engine knows: a job of a transaction on that database records
    /// the log with it, so an engine started after this one can read what happened.
    private let dpkgLog: DpkgLogSource?

    public init(queue: JobQueue, dpkgLog: DpkgLogSource? = nil, watchInterval: DispatchTimeInterval = .milliseconds(250)) {
        self.queue = queue
        self.dpkgLog = dpkgLog
        self.watchInterval = watchInterval
    }

    /// Handles one message of the relay. Messages without an initiator are dropped: there is no
    /// process to name the job after or to watch.
    public func receive(_ report: ObservedReport) {
        guard var initiator = report.initiator else { return }
        if report.dpkgGone {
            // The logger's dpkg exited before its relay looked: `initiator` is whoever adopted the
            // logger's shell, never a transaction of its own. The lines are those of the running
            // transaction whose process it is or runs below; with none (apt ended already, or its
            // begin not heard yet) they are dropped: dpkg's final state gives the results.
            guard let adopter = transactionInitiator(adoptedBy: initiator) else { return }
            initiator = adopter
        }
        let key = Self.key(initiator)
        switch report.event {
        case .status:
            // dpkg never waits for its status logger: the lines of apt's last dpkg run can come
            // after apt's Post-Invoke ended the transaction. Its job has them from dpkg's final
            // state; they make no second job.
            guard !endedByHooks.withLock({ $0.contains(key) }) else { return }
        case .begin, .plan:
            // The same apt runs dpkg again (another Pre-Invoke): a new transaction of its own.
            endedByHooks.withLock { _ = $0.remove(key) }
        case .end:
            break
        }
        _ = entry(key, initiator)
        entries.withLock { $0[key]?.hooked = true }
        // Counted before this message's own lines: they were dropped before it was sent.
        if report.dropped > 0 { countDropped(report.dropped, key) }
        switch report.event {
        case .begin:
            break
        case .plan:
            let plan = ObservedPlan(lines: report.lines)
            guard !plan.changes.isEmpty else { return }
            submit(key, initiator, changes: plan.changes, administrativeDirectory: plan.administrativeDirectory, name: initiator.jobName)
        case .status:
            var transaction = entries.withLock { entries -> ObservedTransaction? in
                if let dpkg = report.dpkg { entries[key]?.dpkg = dpkg }
                return entries[key]?.transaction
            }
            if transaction == nil {
                // No plan (dpkg -i, or the engine started mid-transaction): the packages the running
                // dpkg's arguments name, then those its lines name; the rest are added as dpkg
                // names them (rule 28).
                var changes = DpkgLogWatcher.changes(inDpkgArguments: Self.dpkgArguments(report.dpkg, initiator))
                for line in report.lines {
                    guard let change = DpkgStatusLine(line).flatMap(ObservedTransaction.change(beginning:)),
                          !changes.contains(where: { $0.package == change.package }) else { continue }
                    changes.append(change)
                }
                guard !changes.isEmpty else { return }
                transaction = submit(key, initiator, changes: changes, administrativeDirectory: nil, addsPackages: true,
                                     name: initiator.jobName + " (plan partial: from dpkg's lines)")
            }
            transaction?.receive(statusLines: report.lines)
        case .end:
            endedByHooks.withLock { _ = $0.insert(key) }
            forgetWhenGone(key, initiator)
            end(key)
        }
    }

    /// The initiator of the one running transaction the hooks report whose process is `adopter`
    /// or runs below it (`/proc`, a few reads of the entries' parents): whoever adopted the shell
    /// of a dpkg's status logger is above the apt that ran that dpkg. `nil` when none is, or more
    /// than one (the lines cannot be told apart).
    private func transactionInitiator(adoptedBy adopter: ObservedInitiator) -> ObservedInitiator? {
        let running = entries.withLock { $0.values.filter(\.hooked).map(\.initiator) }
        let below = running.filter { Self.runs($0, below: adopter) }
        return below.count == 1 ? below.first : nil
    }

    /// Whether `initiator`'s process is `ancestor` or one of its descendants, both as they were
    /// when their pids were read (same start time).
    private static func runs(_ initiator: ObservedInitiator, below ancestor: ObservedInitiator) -> Bool {
        let proc = ProcFS()
        var pid = initiator.pid
        var startTicks = initiator.startTicks
        // The depth of a process tree; a loop in a /proc read while processes exit ends too.
        for _ in 0..<64 {
            guard pid > 0, let stat = proc.stat(of: pid), startTicks == 0 || stat.startTicks == startTicks else { return false }
            if pid == ancestor.pid { return ancestor.startTicks == 0 || stat.startTicks == ancestor.startTicks }
            guard stat.parent > 1 else { return false }
            pid = stat.parent
            startTicks = 0
        }
        return false
    }

    /// The transaction dpkg's log shows `holder` running, when no hooks report it (rule 28
    /// without hooks): the job made at the first call, of `changes`, whose results come from
    /// `administrativeDirectory` when the holder is gone. `nil` while `changes` is empty, and
    /// once the hooks report the same process: their job is the one shown, never both.
    public func fromLog(_ holder: LockHolder, changes: [PackageChange], administrativeDirectory: String,
                        dpkg: Int32?) -> ObservedTransaction? {
        // The engine's own child (an apt job's apt-get, or a step after it: `dpkg --configure
        // --pending`, `apt-get check`), known from when the holder was read: a short one may be
        // gone before `entry` reads /proc.
        guard holder.parent != getpid(), holder.initiator.installtopRun?.enginePID != getpid() else { return nil }
        let initiator = holder.initiator
        let key = Self.key(initiator)
        // apt still holds the lock after its Post-Invoke: the log watcher may come to the
        // transaction only after the hooks' job has ended.
        guard !endedByHooks.withLock({ $0.contains(key) }) else { return nil }
        let known = entry(key, initiator)
        guard !known.hooked else {
            entries.withLock { $0[key]?.logFollows = false }
            return nil
        }
        if let dpkg { entries.withLock { $0[key]?.dpkg = dpkg } }
        if let transaction = known.transaction { return transaction }
        guard !changes.isEmpty else { return nil }
        entries.withLock { $0[key]?.logFollows = true }
        return submit(key, initiator, changes: changes, administrativeDirectory: administrativeDirectory, addsPackages: true,
                      name: initiator.jobName + " (from dpkg's log, plan partial: `installtop hooks install` shows the whole plan)")
    }

    /// Counts `count` dropped lines on the job of `key`, or keeps them for the job until there
    /// is one (a plan message dropped, the status lines arriving first).
    private func countDropped(_ count: Int, _ key: String) {
        let transaction = entries.withLock { entries -> ObservedTransaction? in
            guard let transaction = entries[key]?.transaction else {
                entries[key]?.dropped += count
                return nil
            }
            return transaction
        }
        transaction?.receive(droppedLines: count)
    }

    /// Whether `initiator` is this engine's: the apt-get of one of its own apt jobs, which holds
    /// dpkg's lock and runs the hooks like any other. It carries this engine's mark
    /// (`InstalltopRunMarker`), or, for a transaction started without it, is a child of this
    /// process (the stat of a process read once, when its transaction is first heard of).
    private static func isThisEngines(_ initiator: ObservedInitiator) -> Bool {
        if let marker = initiator.installtopRun { return marker.enginePID == getpid() }
        guard let stat = ProcFS().stat(of: initiator.pid), stat.startTicks == initiator.startTicks else { return false }
        return stat.parent == getpid()
    }

    /// The arguments of the dpkg the status lines come from (a small read of `/proc`): the
    /// relay's `dpkg`, else the initiator when it is dpkg run by hand.
    private static func dpkgArguments(_ dpkg: Int32?, _ initiator: ObservedInitiator) -> [String] {
        if let dpkg { return ProcFS().commandLine(of: dpkg) }
        return initiator.program == "dpkg" ? initiator.commandLine : []
    }

    /// The log watcher has given the job of `holder` every line it will: the job ends once the
    /// holder's process (and its dpkg) is gone, as for any observed job.
    public func logEnded(_ holder: LockHolder) {
        entries.withLock { $0[Self.key(holder.initiator)]?.logFollows = false }
    }

    private static func key(_ initiator: ObservedInitiator) -> String { "\(initiator.pid)-\(initiator.startTicks)" }

    /// Whether two absolute paths name the same folder, doubled and trailing slashes aside
    /// (apt's `Dir` joins its parts with one more than needed).
    private static func samePath(_ first: String, _ second: String) -> Bool {
        first.split(separator: "/") == second.split(separator: "/")
    }

    /// The entry for `key`, made (and its process watched) when new.
    private func entry(_ key: String, _ initiator: ObservedInitiator) -> Entry {
        if let entry = entries.withLock({ $0[key] }) { return entry }
        // Read from /proc outside the lock, once per transaction.
        let startedHere = Self.isThisEngines(initiator)
        let (entry, isNew) = entries.withLock { entries -> (Entry, Bool) in
            if let entry = entries[key] { return (entry, false) }
            var entry = Entry(initiator: initiator, administrativeDirectory: Self.administrativeDirectory(of: initiator))
            entry.startedHere = startedHere
            entries[key] = entry
            return (entry, true)
        }
        if isNew { watch(key, initiator) }
        return entry
    }

    @discardableResult
    private func submit(_ key: String, _ initiator: ObservedInitiator, changes: [PackageChange], administrativeDirectory: String?,
                        addsPackages: Bool = false, name: String) -> ObservedTransaction? {
        let known = entry(key, initiator)
        if let transaction = known.transaction { return transaction }
        guard !known.startedHere else { return nil }
        let directory = administrativeDirectory ?? known.administrativeDirectory
        let transaction = ObservedTransaction(
            initiator: initiator, changes: changes, administrativeDirectory: directory, addsPackages: addsPackages)
        // The job says which dpkg it watches: its history rows are settled there if this engine
        // stops before the transaction ends.
        var initiator = initiator
        initiator.administrativeDirectory = directory
        if let dpkgLog, Self.samePath(dpkgLog.administrativeDirectory, directory) { initiator.dpkgLog = dpkgLog.logPath }
        let updates = changes.map(ObservedTransaction.update(for:))
        let operation: UpdateOperation = changes.allSatisfy(\.isRemoval) ? .uninstall : .install
        var name = name
        // unattended-upgrade says in its log which origins it upgrades from (a few small reads).
        if initiator.programName == "unattended-upgrade", let log = UnattendedUpgradeLog(pid: initiator.pid) {
            name += " · origins: \(log.origins)"
        }
        guard (try? queue.submit(name: name, operation: operation, updates: updates, driver: ObservedJobDriver(transaction: transaction),
                                 observedBy: initiator)) != nil else { return nil }
        let dropped = entries.withLock { entries -> Int in
            entries[key]?.transaction = transaction
            defer { entries[key]?.dropped = 0 }
            return entries[key]?.dropped ?? 0
        }
        transaction.receive(droppedLines: dropped)
        return transaction
    }

    private func end(_ key: String) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: key) }) else { return }
        // dpkg-query is a process: never on the server's thread.
        background.async { entry.transaction?.end() }
    }

    /// Ends the transaction when its process is gone (killed apt: rule 30).
    private func watch(_ key: String, _ initiator: ObservedInitiator) {
        background.asyncAfter(deadline: .now() + watchInterval) { [weak self] in
            guard let self, let entry = self.entries.withLock({ $0[key] }) else { return }
            if entry.logFollows || Self.isRunning(initiator) || entry.dpkg.map(Self.isDpkgRunning) == true {
                self.watch(key, initiator)
            } else {
                self.end(key)
            }
        }
    }

    /// Forgets that the hooks ended the transaction of `initiator` `lateLinesGrace` after its
    /// process is gone.
    private func forgetWhenGone(_ key: String, _ initiator: ObservedInitiator) {
        background.asyncAfter(deadline: .now() + watchInterval) { [weak self] in
            guard let self else { return }
            if Self.isRunning(initiator) {
                self.forgetWhenGone(key, initiator)
            } else {
                // The status logger of its last dpkg run may still be sending (a loaded machine):
                // its lines are told apart a while longer.
                self.background.asyncAfter(deadline: .now() + Self.lateLinesGrace) { [weak self] in
                    self?.endedByHooks.withLock { _ = $0.remove(key) }
                }
            }
        }
    }

    /// Whether the process still runs (same pid and start time, not a zombie).
    static func isRunning(_ initiator: ObservedInitiator) -> Bool {
        guard let stat = ProcFS().stat(of: initiator.pid) else { return false }
        return !stat.isDead && (initiator.startTicks == 0 || stat.startTicks == initiator.startTicks)
    }

    /// Whether `pid` is still a live dpkg.
    static func isDpkgRunning(_ pid: Int32) -> Bool {
        guard let stat = ProcFS().stat(of: pid) else { return false }
        return stat.command == "dpkg" && !stat.isDead
    }

    /// dpkg's database as the initiator's command line names it (`--admindir=`, `--root=`), else
    /// the system's.
    static func administrativeDirectory(of initiator: ObservedInitiator) -> String {
        for word in initiator.commandLine {
            if word.hasPrefix("--admindir=") { return String(word.dropFirst("--admindir=".count)) }
            if word.hasPrefix("--root=") { return String(word.dropFirst("--root=".count)) + "/var/lib/dpkg" }
        }
        return "/var/lib/dpkg"
    }
}
