#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallEngine
import InstallHistory
import Synchronization

/// What an engine knows, as the metric families of its textfile (Documentation/METRICS.md):
/// its jobs' and updates' results and durations since it started (from the queue's events),
/// the pending snapshot of its apt root, and its commit-confirmed runs. Fed from the engine's
/// threads (`record`), read by the writer (`families`); each call is quick.
public final class EngineMetrics: Sendable {
    /// A job not completed yet: what its samples are labelled with and when its phases began.
    private struct OpenJob {
        var kind: String
        var queuedAt: Date
        var startedAt: Date?
    }

    private struct State {
        var openJobs: [Int: OpenJob] = [:]
        var updateStarts: [UpdateKey: Date] = [:]
        var jobsCompleted: [[MetricLabel]: Double] = [:]
        var updatesCompleted: [[MetricLabel]: Double] = [:]
        /// Updates whose tool's report dpkg's final state contradicted, by their job's kind.
        var contradictions: [[MetricLabel]: Double] = [:]
        var jobPhases: [[MetricLabel]: SummaryAccumulator] = [:]
        var updateDurations: [[MetricLabel]: SummaryAccumulator] = [:]
        var lastCompleted: [[MetricLabel]: Double] = [:]
        /// The latest pending snapshot read (`nil` before the first) and whether a newer one
        /// is coming.
        var pending: PendingSnapshot?
        var pendingComputing = false
        /// Each pending security update by package name, with when this engine first saw it
        /// pending (a newer version of the same package keeps the date: the host has waited
        /// since then).
        var securitySeenSince: [String: Date] = [:]
        var armed: ArmedRuns?
    }

    private let state = Mutex(State())
    /// When the engine started: the counters count from then.
    private let startedAt: Date

    public init(startedAt: Date = Date()) {
        self.startedAt = startedAt
    }

    /// Takes in an event of the engine's queue (a job queued, started or completed; an update
    /// started or completed); other events change nothing.
    public func record(_ event: EngineEvent) {
        state.withLock { state in
            switch event.kind {
            case .jobQueued(let descriptor):
                state.openJobs[descriptor.id] = OpenJob(kind: HistoryRecorder.kind(of: descriptor), queuedAt: event.time)
            case .jobStarted(let start):
                state.openJobs[start.job]?.startedAt = event.time
            case .updateStarted(let start):
                state.updateStarts[start.updateKey] = event.time
            case .updateCompleted(let completion):
                let kind = state.openJobs[completion.job]?.kind ?? "unknown"
                let labels = [MetricLabel("kind", kind), MetricLabel("result", completion.result.resultCode.name)]
                state.updatesCompleted[labels, default: 0] += 1
                if completion.result.contradictedReport { state.contradictions[[MetricLabel("kind", kind)], default: 0] += 1 }
                if let started = state.updateStarts.removeValue(forKey: completion.updateKey) {
                    state.updateDurations[[MetricLabel("kind", kind)], default: SummaryAccumulator()]
                        .observe(max(0, event.time.timeIntervalSince(started)))
                }
            case .jobCompleted(let completion):
                guard let job = state.openJobs.removeValue(forKey: completion.job) else { return }
                let labels = [MetricLabel("kind", job.kind), MetricLabel("result", completion.result.resultCode.name)]
                state.jobsCompleted[labels, default: 0] += 1
                state.lastCompleted[labels] = event.time.timeIntervalSince1970
                // Waiting: from queued (a plan awaiting its confirmation among it) until it
                // started, or until it completed for a job aborted before it started.
                let waitedUntil = job.startedAt ?? event.time
                state.jobPhases[[MetricLabel("kind", job.kind), MetricLabel("phase", "waiting")], default: SummaryAccumulator()]
                    .observe(max(0, waitedUntil.timeIntervalSince(job.queuedAt)))
                if let startedAt = job.startedAt {
                    state.jobPhases[[MetricLabel("kind", job.kind), MetricLabel("phase", "running")], default: SummaryAccumulator()]
                        .observe(max(0, event.time.timeIntervalSince(startedAt)))
                }
                state.updateStarts = state.updateStarts.filter { $0.key.job != completion.job }
            default:
                break
            }
        }
    }

    /// Takes in the engine's pending state: its snapshot, when it carries one that reads, replaces
    /// the one kept; one that cannot be read (an older engine's, never this one's) is ignored.
    public func record(_ pending: PendingState) {
        let snapshot = pending.snapshot?.objectValue.flatMap { try? PendingSnapshotCoding.decode(WireObject($0, context: "pending.snapshot")) }
        state.withLock { state in
            state.pendingComputing = pending.computing
            guard let snapshot else { return }
            state.pending = snapshot
            // A snapshot that could not be read says nothing of what is pending: the dates stay.
            guard snapshot.problem == nil else { return }
            var seen: [String: Date] = [:]
            for package in snapshot.packages where package.isSecurity {
                seen[package.name] = state.securitySeenSince[package.name] ?? snapshot.computedAt
            }
            state.securitySeenSince = seen
        }
    }

    /// Takes in the engine's commit-confirmed runs as it tells its clients.
    public func record(_ armed: ArmedRuns) {
        state.withLock { $0.armed = armed }
    }

    /// Every family of the textfile, in a fixed order, each with its samples sorted by labels
    /// (so that two writes of one state are the same bytes). A family with nothing to say yet
    /// (no job completed) has no samples; one that is unknown (no pending snapshot yet, lists
    /// never updated, no armed run) has none either, rather than a zero that would be a lie.
    public func families() -> [MetricFamily] {
        let state = state.withLock { $0 }
        var families: [MetricFamily] = [
            MetricFamily(name: "installtop_engine_start_timestamp_seconds",
                         help: "When this engine started, in seconds since the epoch; its counters count from then.",
                         type: .gauge, samples: [MetricSample(value: startedAt.timeIntervalSince1970)]),
            MetricFamily(name: "installtop_jobs_completed_total",
                         help: "Jobs this engine completed since it started, by kind (apt, dnf, driver, commands) and result (succeeded, succeededWithErrors, failed, aborted).",
                         type: .counter, samples: Self.samples(state.jobsCompleted)),
            MetricFamily(name: "installtop_updates_completed_total",
                         help: "Updates (packages, commands) this engine completed since it started, by their job's kind and their result.",
                         type: .counter, samples: Self.samples(state.updatesCompleted)),
            MetricFamily(name: "installtop_report_contradictions_total",
                         help: "Updates whose tool's own report the package database's final state contradicted at the job's end (apt said done, dpkg does not show it done, or the reverse); the database's account is the result. By their job's kind.",
                         type: .counter, samples: Self.samples(state.contradictions)),
            MetricFamily(name: "installtop_job_last_completed_timestamp_seconds",
                         help: "When a job of this kind last completed with this result, in seconds since the epoch.",
                         type: .gauge, samples: Self.samples(state.lastCompleted)),
            MetricFamily(name: "installtop_job_phase_duration_seconds",
                         help: "How long completed jobs spent in each phase: waiting (queued, or awaiting confirmation, until started) and running (started until completed).",
                         type: .summary, samples: Self.summarySamples(state.jobPhases)),
            MetricFamily(name: "installtop_update_duration_seconds",
                         help: "How long completed updates ran, from their start to their result, by their job's kind.",
                         type: .summary, samples: Self.summarySamples(state.updateDurations)),
            MetricFamily(name: "installtop_jobs",
                         help: "Jobs in this engine's queue not completed yet, by state (queued, running).",
                         type: .gauge, samples: [
                            MetricSample(labels: [MetricLabel("state", "queued")], value: Double(state.openJobs.values.count { $0.startedAt == nil })),
                            MetricSample(labels: [MetricLabel("state", "running")], value: Double(state.openJobs.values.count { $0.startedAt != nil })),
                         ]),
        ]
        families += Self.pendingFamilies(state)
        families += Self.armedFamilies(state.armed)
        return families
    }

    private static func pendingFamilies(_ state: State) -> [MetricFamily] {
        let snapshot = state.pending
        let read = snapshot.flatMap { $0.problem == nil ? $0 : nil }
        func gauge(_ name: String, _ help: String, _ value: Double?) -> MetricFamily {
            MetricFamily(name: name, help: help, type: .gauge, samples: value.map { [MetricSample(value: $0)] } ?? [])
        }
        return [
            gauge("installtop_pending_snapshot_timestamp_seconds",
                  "When the engine last read what an upgrade of its apt root would do, in seconds since the epoch.",
                  snapshot?.computedAt.timeIntervalSince1970),
            gauge("installtop_pending_snapshot_failed",
                  "1 when the engine's last reading of its apt root failed (installtop pending says why), else 0.",
                  snapshot.map { $0.problem == nil ? 0 : 1 }),
            gauge("installtop_pending_snapshot_computing",
                  "1 while a newer reading of the apt root is being computed or waits for a package job to end, else 0.",
                  snapshot == nil ? nil : (state.pendingComputing ? 1 : 0)),
            gauge("installtop_pending_packages",
                  "Packages an upgrade of the engine's apt root would install or upgrade (apt-get -s upgrade).",
                  read.map { Double($0.packages.count) }),
            gauge("installtop_pending_security_packages",
                  "Pending packages whose new version comes from a security suite (an origin naming -security).",
                  read.map { Double($0.securityCount) }),
            gauge("installtop_held_back_packages",
                  "Installed packages with a newer version that the upgrade would leave alone (held, kept back, phased).",
                  read.map { Double($0.heldBack.count) }),
            gauge("installtop_not_fully_installed_packages",
                  "Packages dpkg left half-way (unpacked, half-configured, awaiting triggers, reinstallation required).",
                  read.map { Double($0.notFullyInstalled.count) }),
            gauge("installtop_pending_security_oldest_seen_timestamp_seconds",
                  "When this engine first saw pending the security update that has waited longest, in seconds since the epoch; absent when none is pending.",
                  read == nil ? nil : state.securitySeenSince.values.min()?.timeIntervalSince1970),
            gauge("installtop_apt_lists_updated_timestamp_seconds",
                  "When apt last wrote one of the root's package lists, in seconds since the epoch; absent when it never did.",
                  read?.listsUpdatedAt?.timeIntervalSince1970),
            gauge("installtop_reboot_required",
                  "1 when the root's restart advice needs a reboot (a newer kernel installed, or code only a reboot replaces), else 0.",
                  read.map { $0.rebootText == nil ? 0 : 1 }),
        ]
    }

    private static func armedFamilies(_ armed: ArmedRuns?) -> [MetricFamily] {
        let runs = armed?.runs ?? []
        let soonest = runs.filter { $0.state == .armed }.map(\.deadline).min()
        return [
            MetricFamily(name: "installtop_armed_confirmations",
                         help: "Commit-confirmed runs of this engine's history still open, by state: armed (waiting for a confirmation) or reverting.",
                         type: .gauge, samples: armed == nil ? [] : [ArmedRun.State.armed, .reverting].map { open in
                            MetricSample(labels: [MetricLabel("state", open.rawValue)], value: Double(runs.count { $0.state == open }))
                         }),
            MetricFamily(name: "installtop_armed_confirmation_deadline_timestamp_seconds",
                         help: "The soonest deadline of an armed commit-confirmed run, after which it is reverted, in seconds since the epoch; absent when none is armed.",
                         type: .gauge, samples: soonest.map { [MetricSample(value: $0.timeIntervalSince1970)] } ?? []),
        ]
    }

    private static func samples(_ values: [[MetricLabel]: Double]) -> [MetricSample] {
        values.sorted { order($0.key, $1.key) }.map { MetricSample(labels: $0.key, value: $0.value) }
    }

    private static func summarySamples(_ values: [[MetricLabel]: SummaryAccumulator]) -> [MetricSample] {
        values.sorted { order($0.key, $1.key) }.flatMap { labels, summary in
            [MetricSample(suffix: "_sum", labels: labels, value: summary.sum),
             MetricSample(suffix: "_count", labels: labels, value: Double(summary.count))]
        }
    }

    private static func order(_ left: [MetricLabel], _ right: [MetricLabel]) -> Bool {
        left.map(\.value).lexicographicallyPrecedes(right.map(\.value))
    }
}
