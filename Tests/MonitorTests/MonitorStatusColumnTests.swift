import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// At 120 columns the updates pane gives a failure's reason and the countdown to a kill the
/// room to show whole, and what a stop does to an update the room to read to its meaning,
/// taking it from the ETA, the title (down to 16 columns) and the bar.
@Suite("Monitor: the status column holds reasons whole")
struct MonitorStatusColumnTests {
    @Test("A failure's reason shows whole at 120 columns beside long package titles")
    func failureReasonWhole() throws {
        var scenario = Scenario(width: 120, height: 40)
        let job = scenario.queue("apt install", [
            "libssl3 3.0.11-1~deb12u2 → 3.0.15-1~deb12u1", "openssl 3.0.11-1~deb12u2 → 3.0.15-1~deb12u1", "curl 7.88.1-10 → 7.88.1-10+deb12u8",
        ])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.progress(job, 0, 60, message: "unpacking")
        scenario.completeUpdate(job, 0, .failed, reason: "exited with status 100")
        scenario.startUpdate(job, 1)
        scenario.progress(job, 1, 30, message: "unpacking")
        let screen = scenario.screen()
        #expect(screen.contains("exited with status 100"), "\(screen)")
        #expect(screen.contains("✖ libssl3 3.0.11-1~deb12u2"), "the title gives only what the reason needs:\n\(screen)")
        scenario.completeUpdate(job, 1, .failed, reason: "timed out after 30m")
        #expect(scenario.screen().contains("timed out after 30m"), "\(scenario.screen())")
    }

    @Test("A failure's reason too long for the column is cut after its outcome word: never dpkg's words alone, which read like success", arguments: [80, 100, 120, 160])
    func cutReasonKeepsItsWord(width: Int) throws {
        var scenario = Scenario(width: width, height: 30)
        let job = scenario.queue("apt upgrade", ["fleet-agent 1.0 → 2.0", "curl 7.88.1-10 → 7.88.1-10+deb12u8"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        let reason = "installed fleet-agent package post-installation script subprocess returned error exit status 1"
        scenario.completeUpdate(job, 0, .failed, reason: reason)
        let screen = scenario.screen()
        let row = try #require(screen.split(separator: "\n").first { $0.contains("fleet-agent 1.0") }, "\(screen)")
        // Whole, after its word when cut, or (at 80 columns, where no status text shows) not at all.
        #expect(row.contains(reason) || row.contains("failed: installed") || !row.contains("installed"), "\(screen)")
        if width == 100 { #expect(row.contains("failed: installed") && !row.contains(reason), "cut at 100 columns:\n\(screen)") }
    }

    @Test("The countdown of an update past its timeout shows whole, its seconds included")
    func killCountdownWhole() throws {
        var scenario = Scenario(width: 120, height: 40)
        scenario.send(.jobQueued(JobDescriptor(
            id: 1, name: "Slow", operation: .install,
            updates: [Update(id: "slow", title: "firmware-misc-nonfree 20230210", timeout: .seconds(30))], stopOnFailure: false)))
        scenario.startJob(1)
        scenario.send(.updateStarted(job: 1, index: 0, updateID: "slow"))
        scenario.advance(31)
        scenario.send(.progress(job: 1, index: 0, updatePercent: nil, jobPercent: 0, message: "timed out after 30s; killing in 9s"))
        let screen = scenario.screen()
        #expect(screen.contains("timed out after 30s; killing in 9s"), "\(screen)")
    }

    @Test("Without a must-read text the title keeps its room: a status message does not squeeze it")
    func statusDoesNotSqueezeTheTitle() throws {
        var scenario = Scenario(width: 120, height: 40)
        let job = scenario.queue("apt install", ["libssl3 3.0.11-1~deb12u2 → 3.0.15"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.progress(job, 0, 30, message: "Unpacking libssl3:amd64 (3.0.15-1~deb12u1) over (3.0.11-1~deb12u2) ...")
        #expect(scenario.screen().contains("▶ libssl3 3.0.11-1~deb12u2"), "\(scenario.screen())")
    }

    /// An apt job of five packages with Debian-long titles, the first running.
    private func aptJob(_ scenario: inout Scenario) -> Int {
        scenario.send(.jobQueued(JobDescriptor(
            id: 1, name: "apt upgrade", operation: .install,
            updates: ["libssl3", "openssl", "curl", "libcurl4", "systemd"].map {
                Update(id: $0, title: "\($0) 3.0.11-1~deb12u2 → 3.0.15-1~deb12u1")
            }, stopOnFailure: false, runByDriver: true)))
        scenario.startJob(1)
        scenario.send(.updateStarted(job: 1, index: 0, updateID: "libssl3"))
        scenario.send(.progress(job: 1, index: 0, updatePercent: 40, jobPercent: 8, message: "unpacking"))
        return 1
    }

    @Test("At 120 columns an apt job's stop reads to its meaning: stopping after this package")
    func stoppingReadsWhole() {
        var scenario = Scenario(width: 120, height: 30)
        let job = aptJob(&scenario)
        scenario.send(.jobAbortRequested(job: job, force: false))
        scenario.send(.progress(job: job, index: 0, updatePercent: 60, jobPercent: 12, message: "stopping after this package (abort requested)"))
        let screen = scenario.screen()
        #expect(screen.contains("stopping after this package"), "\(screen)")
        #expect(!screen.contains("stopping after this packag…"), "the words whole, not cut at the ellipsis:\n\(screen)")
    }

    @Test("At 120 columns the repair after a forced abort reads whole: repairing: dpkg --configure -a")
    func repairReadsWhole() {
        var scenario = Scenario(width: 120, height: 30)
        let job = aptJob(&scenario)
        scenario.send(.jobAbortRequested(job: job, force: false))
        scenario.send(.jobAbortRequested(job: job, force: true))
        scenario.send(.progress(job: job, index: 0, updatePercent: 60, jobPercent: 12, message: "repairing: dpkg --configure -a …"))
        let screen = scenario.screen()
        #expect(screen.contains("repairing: dpkg --configure -a"), "\(screen)")
    }

    @Test("At 120 columns the packages an abort left out say why whole: not started: the job was aborted")
    func notStartedReadsWhole() {
        var scenario = Scenario(width: 120, height: 30)
        let job = aptJob(&scenario)
        scenario.send(.jobAbortRequested(job: job, force: false))
        scenario.completeUpdate(job, 0, .succeeded)
        for (index, id) in ["openssl", "curl", "libcurl4", "systemd"].enumerated() {
            scenario.send(.updateCompleted(job: job, index: index + 1, updateID: id, result: UpdateInstallationResult(
                resultCode: .aborted, hResult: .callCancelled, reason: "not started: the job was aborted")))
        }
        scenario.completeJob(job)
        let screen = scenario.screen()
        #expect(screen.components(separatedBy: "not started: the job was aborted").count - 1 == 4, "\(screen)")
        #expect(screen.contains("✔ libssl3 3.0.11-1"), "the titles keep their first words:\n\(screen)")
    }

    @Test(arguments: [60, 74, 90, 120])
    func columnsAddUpAndKeepTheirMinimums(width: Int) {
        for wanted in [0, 10, 20, 34, 60, 200] {
            let columns = UpdateColumns(width: width, wantedMessage: wanted)
            let used = 2 + columns.title + 1 + columns.bar + 1 + columns.percent
                + (columns.elapsed > 0 ? 1 + columns.elapsed : 0) + (columns.eta > 0 ? 1 + columns.eta : 0)
                + (columns.message > 0 ? 1 + columns.message : 0)
            #expect(used == width, "width \(width), wanted \(wanted): \(columns)")
            #expect(columns.title >= UpdateColumns.minimumTitle && columns.bar >= UpdateColumns.minimumBar)
        }
    }
}
