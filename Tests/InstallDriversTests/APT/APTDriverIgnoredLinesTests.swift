import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// apt's Status-Fd lines the driver cannot read are ignored and counted on the job, with the
/// channel lines a child's progress channel could not read: `job.completed`, `status` and the
/// monitor show that count.
@Suite("apt: ignored Status-Fd lines are counted on the job")
struct APTDriverIgnoredLinesTests {
    @Test("A stand-in apt-get's unreadable Status-Fd lines reach the job's result as ignored lines; apt's own non-package lines do not")
    func ignoredStatusLinesCount() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/installtop-apt-ignored-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/root/var/lib/dpkg", withIntermediateDirectories: true)
        // dpkg's database lists the package installed, so the final check agrees with the stream.
        try "Package: lab-a\nStatus: install ok installed\nVersion: 1.0\nArchitecture: all\nMaintainer: t <t@invalid>\nDescription: t\n"
            .write(toFile: folder + "/root/var/lib/dpkg/status", atomically: false, encoding: .utf8)
        // Three lines the tracker cannot read (no fields, a percent above 100, a file beyond
        // the download list) and apt's own `dpkg-exec` line, which is not a package but not
        // broken either.
        let stream = [
            "pmstatus:dpkg-exec:0:Running dpkg",
            "garbage",
            "pmstatus:lab-a:10:Preparing lab-a (all)",
            "pmstatus:lab-a:200:Unpacking lab-a (all)",
            "dlstatus:7:10:Retrieving file 7 of 1",
            "pmstatus:lab-a:100:Installed lab-a (all)",
        ]
        let aptGet = folder + "/apt-get"
        try "#!/bin/sh\nprintf '%s\\n' \(stream.map { "'\($0)'" }.joined(separator: " ")) >&3\n"
            .write(toFile: aptGet, atomically: false, encoding: .utf8)
        try ExecutableFile.makeExecutable(aptGet)
        let environment = APTEnvironment(aptConfig: nil, administrativeDirectory: folder + "/root/var/lib/dpkg", root: folder + "/root",
                                         dpkgOptions: [])
        let plan = APTPlan(job: PackageJob(request: .install(["lab-a"])), environment: environment,
                           changes: [PackageChange(package: "lab-a", action: .install, newVersion: "1.0", architecture: "all")], downloads: [])
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: folder + "/reboot-required"))
        let id = try queue.submit(name: "apt", updates: plan.updates, driver: APTDriver(plan: plan, aptGet: aptGet)).id
        await queue.waitUntilIdle()
        let job = try #require(queue.snapshot().job(id))
        #expect(job.updates.map(\.result.resultCode) == [.succeeded])
        #expect(job.result?.ignoredLines == 3)
        #expect(job.result?.protocolErrors == 0)
        #expect(job.result?.ignoredLinesText == "3 lines ignored")
    }
}
