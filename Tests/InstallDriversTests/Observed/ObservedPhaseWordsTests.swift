import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// An observed job shows dpkg's phases in the words and the case an apt job run by installtop
/// shows them (`APTPackagePhase.word`: "unpacking", not "Unpacking"), so the two read alike.
@Suite("Observed transaction: phase words")
struct ObservedPhaseWordsTests {
    /// The status texts of an observed transaction of `change` that receives `lines`.
    private func messages(_ change: PackageChange, lines: [String]) async -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("observed-\(UUID().uuidString)").path
        let initiator = ObservedInitiator(pid: 1, startTicks: 0, program: "dpkg", commandLine: ["dpkg", "-i"], uid: 0, user: "root", terminal: "")
        let transaction = ObservedTransaction(initiator: initiator, changes: [change], administrativeDirectory: folder, addsPackages: false)
        let recorder = RecordingDriverReporter()
        let running = ObservedJobDriver(transaction: transaction)
            .start(DriverRunRequest(updates: [], operation: .install, jobName: "dpkg -i"), reporter: recorder)
        transaction.receive(statusLines: lines)
        transaction.end()
        _ = await running.outcome
        return recorder.reports.withLock { reports in
            reports.compactMap { report in
                if case .update(_, .progress(_, let message?)) = report { message } else { nil }
            }
        }
    }

    @Test("An install: unpacking, unpacked, waiting for triggers, configuring, installed, as apt's words are written")
    func install() async {
        let messages = await messages(PackageChange(package: "lab-base", action: .install), lines: [
            "processing: install: lab-base", "status: lab-base: half-installed", "status: lab-base: unpacked",
            "processing: configure: lab-base", "status: lab-base: half-configured", "status: lab-base: triggers-pending",
            "status: lab-base: installed",
        ])
        let phases = messages.filter { !$0.hasPrefix("dpkg: ") }
        #expect(phases == [APTPackagePhase.unpacking.word, "unpacked", APTPackagePhase.configuring.word, "waiting for triggers",
                           APTPackagePhase.installed.word], "\(messages)")
        #expect(phases.allSatisfy { $0.first?.isLowercase == true }, "\(phases)")
    }

    @Test("A removal: preparing for removal, removing, removing files, removed")
    func removal() async {
        let messages = await messages(PackageChange(package: "lab-old", action: .remove), lines: [
            "processing: remove: lab-old", "status: lab-old: installed", "status: lab-old: half-configured",
            "status: lab-old: half-installed", "status: lab-old: config-files",
        ])
        let phases = messages.filter { !$0.hasPrefix("dpkg: ") }
        #expect(phases == [APTPackagePhase.preparingForRemoval.word, APTPackagePhase.removing.word, "removing files",
                           APTPackagePhase.removed.word], "\(messages)")
    }
}
