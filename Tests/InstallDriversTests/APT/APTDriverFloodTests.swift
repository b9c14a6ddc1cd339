import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// A flood of Status-Fd lines (apt printing faster than the job takes them) is read in wake-ups
/// of up to a megabyte and handed on in pieces: nothing is lost or reordered on the way.
@Suite("apt: a flood of Status-Fd lines")
struct APTDriverFloodTests {
    @Test("2,000 packages' lines written at once: every package runs its phases in order, finishes in apt's order, and the job's percent never goes down")
    func floodKeepsEveryLineInOrder() async throws {
        let count = 2000
        let folder = FileManager.default.temporaryDirectory.path + "/installtop-apt-flood-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/root/var/lib/dpkg", withIntermediateDirectories: true)
        let names = (0..<count).map { String(format: "flood-%04d", $0) }
        // dpkg's database lists every package installed, so the final check agrees with the stream.
        try names.map { "Package: \($0)\nStatus: install ok installed\nVersion: 1.0\nArchitecture: all\nMaintainer: t <t@invalid>\nDescription: t\n" }
            .joined(separator: "\n").write(toFile: folder + "/root/var/lib/dpkg/status", atomically: false, encoding: .utf8)
        let phases = ["Preparing", "Unpacking", "Preparing to configure", "Configuring", "Installed"]
        var lines = ["pmstatus:dpkg-exec:0:Running dpkg"]
        for (index, name) in names.enumerated() {
            for (step, phase) in phases.enumerated() {
                let overall = Double(index * phases.count + step + 1) / Double(count * phases.count) * 99
                lines.append("pmstatus:\(name):\(String(format: "%.4f", overall)):\(phase) \(name) (all)")
            }
        }
        // About 600 KB: more than a pipe holds, and more lines than are handed on at a time.
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/stream", atomically: false, encoding: .utf8)
        let aptGet = folder + "/apt-get"
        try "#!/bin/sh\nexec cat '\(folder)/stream' >&3\n".write(toFile: aptGet, atomically: false, encoding: .utf8)
        try ExecutableFile.makeExecutable(aptGet)
        let environment = APTEnvironment(aptConfig: nil, administrativeDirectory: folder + "/root/var/lib/dpkg", root: folder + "/root",
                                         dpkgOptions: [])
        let changes = names.map { PackageChange(package: $0, action: .install, newVersion: "1.0", architecture: "all") }
        let plan = APTPlan(job: PackageJob(request: .install(names)), environment: environment, changes: changes, downloads: [])
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: folder + "/reboot-required"))
        let events = RecordedEvents()
        queue.subscribe { events.add($0) }
        _ = try queue.submit(name: "apt", updates: plan.updates, driver: APTDriver(plan: plan, aptGet: aptGet))
        await queue.waitUntilIdle()

        let recorded = events.all
        let codes = queue.snapshot().jobs.first?.updates.map(\.result.resultCode) ?? []
        #expect(codes.count == count && codes.allSatisfy { $0 == .succeeded }, "\(codes.filter { $0 == .succeeded }.count) of \(codes.count) succeeded")
        // apt's order, each package started before it ends (its verdict is held until dpkg's
        // output moves on, here until apt ends: the stream has no output).
        var started: [Int] = []
        var ended: [Int] = []
        var messages = Array(repeating: [String](), count: count)
        var jobPercents: [Double] = []
        for event in recorded {
            switch event.kind {
            case .updateStarted(let start): started.append(start.index)
            case .updateCompleted(let completion):
                #expect(started.contains(completion.index), "update \(completion.index) ended before it started")
                ended.append(completion.index)
            case .progress(let progress):
                jobPercents.append(progress.jobPercent)
                if let message = progress.message, messages[progress.index].last != message { messages[progress.index].append(message) }
            default: break
            }
        }
        #expect(started == Array(0..<count), "started: \(started.count), the first out of order at \(started.indices.first { started[$0] != $0 } ?? -1)")
        #expect(ended == Array(0..<count), "ended: \(ended.count), the first out of order at \(ended.indices.first { ended[$0] != $0 } ?? -1)")
        // Every phase's text reaches its package, in order.
        let expected = ["preparing", "unpacking", "preparing to configure", "configuring", "installed"]
        let wrong = messages.indices.filter { index in
            messages[index].count != expected.count || !zip(messages[index], expected).allSatisfy { $0.hasPrefix($1) }
        }
        #expect(wrong.isEmpty, "\(wrong.count) packages with other texts, the first: \(wrong.first.map { messages[$0] } ?? [])")
        #expect(zip(jobPercents, jobPercents.dropFirst()).allSatisfy { $0 <= $1 }, "the job's percent went down")
    }
}
