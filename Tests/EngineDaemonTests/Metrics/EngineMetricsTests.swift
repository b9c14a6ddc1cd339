import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import RestartScan
import Testing

/// What the engine's events, pending snapshot and armed runs make of the families.
@Suite("Metrics: the engine's families")
struct EngineMetricsTests {
    let epoch = Date(timeIntervalSince1970: 1_764_331_200)

    private func event(_ seconds: Double, _ kind: EngineEvent.Kind) -> EngineEvent {
        EngineEvent(time: epoch.addingTimeInterval(seconds), kind: kind)
    }

    private func samples(_ families: [MetricFamily], _ name: String) -> [MetricSample] {
        families.first { $0.name == name }?.samples ?? []
    }

    @Test("results by kind and result, phases and update durations, the last completion and the queue's jobs")
    func jobs() throws {
        let metrics = EngineMetrics(startedAt: epoch)
        let commands = JobDescriptor(id: 1, name: "Commands", operation: .install, updates: [Update(id: "a"), Update(id: "b")], stopOnFailure: false)
        let dnf = JobDescriptor(id: 2, name: "dnf", operation: .install, updates: [Update(id: "p")], stopOnFailure: false, runByDriver: true,
                                packageTool: "dnf")
        metrics.record(event(0, .jobQueued(commands)))
        metrics.record(event(1, .jobQueued(dnf)))
        metrics.record(event(2, .jobStarted(JobStart(job: 1))))
        #expect(samples(metrics.families(), "installtop_jobs").map(\.value) == [1, 1])
        metrics.record(event(2, .updateStarted(job: 1, index: 0, updateID: "a")))
        metrics.record(event(5, .updateCompleted(job: 1, index: 0, updateID: "a", result: UpdateInstallationResult(resultCode: .succeeded))))
        metrics.record(event(5, .updateStarted(job: 1, index: 1, updateID: "b")))
        metrics.record(event(6, .updateCompleted(job: 1, index: 1, updateID: "b", result: UpdateInstallationResult(resultCode: .failed))))
        let mixed = InstallationResult.combining([UpdateInstallationResult(resultCode: .succeeded), UpdateInstallationResult(resultCode: .failed)],
                                                 abortRequested: false)
        metrics.record(event(6.5, .jobCompleted(JobCompletion(job: 1, result: mixed))))
        // Aborted while queued: it waited until it completed, and never ran.
        metrics.record(event(10, .jobCompleted(JobCompletion(job: 2, result: InstallationResult.combining(
            [UpdateInstallationResult(resultCode: .aborted)], abortRequested: true)))))

        let families = metrics.families()
        #expect(samples(families, "installtop_jobs_completed_total") == [
            MetricSample(labels: [MetricLabel("kind", "commands"), MetricLabel("result", "succeededWithErrors")], value: 1),
            MetricSample(labels: [MetricLabel("kind", "dnf"), MetricLabel("result", "aborted")], value: 1),
        ])
        #expect(samples(families, "installtop_updates_completed_total") == [
            MetricSample(labels: [MetricLabel("kind", "commands"), MetricLabel("result", "failed")], value: 1),
            MetricSample(labels: [MetricLabel("kind", "commands"), MetricLabel("result", "succeeded")], value: 1),
        ])
        #expect(samples(families, "installtop_job_last_completed_timestamp_seconds").map(\.value)
                == [epoch.timeIntervalSince1970 + 6.5, epoch.timeIntervalSince1970 + 10])
        #expect(samples(families, "installtop_job_phase_duration_seconds") == [
            MetricSample(suffix: "_sum", labels: [MetricLabel("kind", "commands"), MetricLabel("phase", "running")], value: 4.5),
            MetricSample(suffix: "_count", labels: [MetricLabel("kind", "commands"), MetricLabel("phase", "running")], value: 1),
            MetricSample(suffix: "_sum", labels: [MetricLabel("kind", "commands"), MetricLabel("phase", "waiting")], value: 2),
            MetricSample(suffix: "_count", labels: [MetricLabel("kind", "commands"), MetricLabel("phase", "waiting")], value: 1),
            MetricSample(suffix: "_sum", labels: [MetricLabel("kind", "dnf"), MetricLabel("phase", "waiting")], value: 9),
            MetricSample(suffix: "_count", labels: [MetricLabel("kind", "dnf"), MetricLabel("phase", "waiting")], value: 1),
        ])
        #expect(samples(families, "installtop_update_duration_seconds") == [
            MetricSample(suffix: "_sum", labels: [MetricLabel("kind", "commands")], value: 4),
            MetricSample(suffix: "_count", labels: [MetricLabel("kind", "commands")], value: 2),
        ])
        #expect(samples(families, "installtop_jobs").map(\.value) == [0, 0])
        #expect(samples(families, "installtop_engine_start_timestamp_seconds").map(\.value) == [epoch.timeIntervalSince1970])
        #expect(samples(families, "installtop_report_contradictions_total").isEmpty, "no update was contradicted")
        // Nothing known of the root yet: no value rather than a zero.
        #expect(samples(families, "installtop_pending_packages").isEmpty)
        #expect(families.allSatisfy { $0.name.hasPrefix("installtop_") })
    }

    @Test("an update whose tool's report dpkg contradicted is counted by its job's kind")
    func contradictions() {
        let metrics = EngineMetrics(startedAt: epoch)
        let apt = JobDescriptor(id: 1, name: "apt", operation: .install, updates: [Update(id: "a"), Update(id: "b")], stopOnFailure: false,
                                runByDriver: true, packageTool: "apt")
        metrics.record(event(0, .jobQueued(apt)))
        var contradicted = UpdateInstallationResult(resultCode: .failed, reason: "apt reported it done, but dpkg shows it half-configured")
        contradicted.contradictedReport = true
        metrics.record(event(1, .updateCompleted(job: 1, index: 0, updateID: "a", result: contradicted)))
        metrics.record(event(2, .updateCompleted(job: 1, index: 1, updateID: "b", result: UpdateInstallationResult(resultCode: .succeeded))))
        #expect(samples(metrics.families(), "installtop_report_contradictions_total") == [
            MetricSample(labels: [MetricLabel("kind", "apt")], value: 1),
        ])
    }

    private func pendingState(_ snapshot: PendingSnapshot, computing: Bool = false) throws -> PendingState {
        PendingState(snapshot: try JSONParser.parse(PendingSnapshotCoding.encode(snapshot)), computing: computing)
    }

    @Test("pending counts, lists, reboot, and the oldest pending security update kept across snapshots while it stays pending")
    func pending() throws {
        let metrics = EngineMetrics(startedAt: epoch)
        let lists = epoch.addingTimeInterval(-86_400)
        let kernel = RestartAdvice(rebootReasons: [.newerKernel(running: "6.1.0-27-amd64", installed: "6.1.0-28-amd64")])
        let security = PendingPackage(name: "openssl", oldVersion: "3.0.14", newVersion: "3.0.15", origin: "Debian-Security:12/stable-security")
        let plain = PendingPackage(name: "curl", oldVersion: "7.88", newVersion: "7.89", origin: "Debian:12/stable")
        metrics.record(try pendingState(PendingSnapshot(computedAt: epoch, packages: [security, plain],
                                                        heldBack: [HeldBackPackage(name: "nginx", installedVersion: "1", availableVersion: "2", reason: .held)],
                                                        notFullyInstalled: ["lab-a: half-configured at 2.0 (iF)"], listsUpdatedAt: lists,
                                                        restarts: kernel)))
        var families = metrics.families()
        #expect(samples(families, "installtop_pending_packages").map(\.value) == [2])
        #expect(samples(families, "installtop_pending_security_packages").map(\.value) == [1])
        #expect(samples(families, "installtop_held_back_packages").map(\.value) == [1])
        #expect(samples(families, "installtop_not_fully_installed_packages").map(\.value) == [1])
        #expect(samples(families, "installtop_apt_lists_updated_timestamp_seconds").map(\.value) == [lists.timeIntervalSince1970])
        #expect(samples(families, "installtop_reboot_required").map(\.value) == [1])
        #expect(samples(families, "installtop_pending_snapshot_failed").map(\.value) == [0])
        #expect(samples(families, "installtop_pending_security_oldest_seen_timestamp_seconds").map(\.value) == [epoch.timeIntervalSince1970])

        // An hour later openssl has a newer version still pending, and a second security
        // update came: the oldest is still openssl's first sighting. A failed reading between
        // changes no date.
        metrics.record(try pendingState(.failed("apt-get: broken", at: epoch.addingTimeInterval(1_800))))
        families = metrics.families()
        #expect(samples(families, "installtop_pending_snapshot_failed").map(\.value) == [1])
        #expect(samples(families, "installtop_pending_packages").isEmpty, "a failed reading knows no count")
        var newer = security
        newer.newVersion = "3.0.16"
        let other = PendingPackage(name: "libc6", oldVersion: "2.36", newVersion: "2.37", origin: "Debian-Security:12/stable-security")
        metrics.record(try pendingState(PendingSnapshot(computedAt: epoch.addingTimeInterval(3_600), packages: [newer, other],
                                                        listsUpdatedAt: lists, restarts: RestartAdvice()), computing: true))
        families = metrics.families()
        #expect(samples(families, "installtop_pending_security_oldest_seen_timestamp_seconds").map(\.value) == [epoch.timeIntervalSince1970])
        #expect(samples(families, "installtop_reboot_required").map(\.value) == [0])
        #expect(samples(families, "installtop_pending_snapshot_computing").map(\.value) == [1])

        // openssl installed: libc6, first seen an hour in, is the oldest now; then none at all.
        metrics.record(try pendingState(PendingSnapshot(computedAt: epoch.addingTimeInterval(7_200), packages: [other], restarts: RestartAdvice())))
        #expect(samples(metrics.families(), "installtop_pending_security_oldest_seen_timestamp_seconds").map(\.value)
                == [epoch.timeIntervalSince1970 + 3_600])
        metrics.record(try pendingState(PendingSnapshot(computedAt: epoch.addingTimeInterval(9_000), restarts: RestartAdvice())))
        families = metrics.families()
        #expect(samples(families, "installtop_pending_security_oldest_seen_timestamp_seconds").isEmpty)
        #expect(samples(families, "installtop_apt_lists_updated_timestamp_seconds").isEmpty, "lists never updated: no time")
    }

    @Test("armed confirmations by open state and the soonest armed deadline; none armed, no deadline")
    func armed() {
        let metrics = EngineMetrics(startedAt: epoch)
        #expect(samples(metrics.families(), "installtop_armed_confirmations").isEmpty, "nothing known before the first reading")
        metrics.record(ArmedRuns(runs: [
            ArmedRun(run: 3, state: .armed, armedAt: epoch, deadline: epoch.addingTimeInterval(600), name: "late"),
            ArmedRun(run: 4, state: .armed, armedAt: epoch, deadline: epoch.addingTimeInterval(300), name: "soon"),
            ArmedRun(run: 5, state: .reverting, armedAt: epoch, deadline: epoch.addingTimeInterval(60), name: "reverting"),
            ArmedRun(run: 6, state: .confirmed, armedAt: epoch, deadline: epoch.addingTimeInterval(60), name: "kept"),
        ]))
        var families = metrics.families()
        #expect(samples(families, "installtop_armed_confirmations") == [
            MetricSample(labels: [MetricLabel("state", "armed")], value: 2),
            MetricSample(labels: [MetricLabel("state", "reverting")], value: 1),
        ])
        #expect(samples(families, "installtop_armed_confirmation_deadline_timestamp_seconds").map(\.value) == [epoch.timeIntervalSince1970 + 300])
        metrics.record(ArmedRuns(runs: []))
        families = metrics.families()
        #expect(samples(families, "installtop_armed_confirmations").map(\.value) == [0, 0])
        #expect(samples(families, "installtop_armed_confirmation_deadline_timestamp_seconds").isEmpty)
    }
}
