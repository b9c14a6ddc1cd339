import EngineWire
import Foundation
import RestartScan
import Testing
@testable import installtop

/// `installtop pending`'s text, from snapshots made by hand.
@Suite("PendingReport: pending's text")
struct PendingReportTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the restart advice the JSON carries is in the text: a waiting kernel, under Restarts, as installtop restarts says it")
    func restartAdvice() {
        let advice = RestartAdvice(rebootReasons: [.newerKernel(running: "6.1.0-27-amd64", installed: "6.1.0-28-amd64")])
        let snapshot = PendingSnapshot(computedAt: now, listsUpdatedAt: now, restarts: advice)
        let text = PendingReport.text(snapshot, now: now, sanitizer: TextEnvironment.sanitizer, width: 100)
        #expect(text.hasPrefix("up to date · lists just updated · reboot: 6.1.0-28-amd64\n"), "\(text)")
        #expect(text.contains("\nRestarts\n" + RestartAdviceText.report(advice, sanitizer: TextEnvironment.sanitizer, width: 100)), "\(text)")
        #expect(text.contains("6.1.0-28-amd64"))
    }

    @Test("nothing to restart: no Restarts section")
    func nothingToRestart() {
        let snapshot = PendingSnapshot(computedAt: now, listsUpdatedAt: now, restarts: RestartAdvice())
        let text = PendingReport.text(snapshot, now: now, sanitizer: TextEnvironment.sanitizer, width: 100)
        #expect(!text.contains("Restarts"), "\(text)")
    }

    @Test("what dpkg left half-way is said with the snapshot's command, which the JSON carries too; an older engine's none reads as dpkg --configure -a")
    func finishCommand() throws {
        var snapshot = PendingSnapshot(computedAt: now, notFullyInstalled: ["lab-k2: half-installed at 2.0 (iHR)"],
                                       finishCommand: "installtop apt repair 3", listsUpdatedAt: now)
        let text = PendingReport.text(snapshot, now: now, sanitizer: TextEnvironment.sanitizer, width: 100)
        #expect(text.contains("not fully installed (installtop apt repair 3 finishes them once what stopped them is fixed):\n"
            + "  lab-k2: half-installed at 2.0 (iHR)\n"), "\(text)")
        let json = PendingSnapshotCoding.encode(snapshot)
        #expect(json.contains(#""finishCommand":"installtop apt repair 3""#), "\(json)")
        let decoded = try PendingSnapshotCoding.decode(WireObject(try #require(JSONParser.parse(json).objectValue), context: "snapshot"))
        #expect(decoded.finishCommand == "installtop apt repair 3")

        snapshot.finishCommand = nil
        #expect(PendingReport.text(snapshot, now: now, sanitizer: TextEnvironment.sanitizer, width: 100)
            .contains("not fully installed (dpkg --configure -a finishes them"))
    }
}
