import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// Real apt transactions in a private root, run by `APTDriver` through the engine's queue: one
/// update per package, results checked against dpkg, and nothing of the host's packages touched.
@Suite("apt: the driver", .serialized)
struct APTDriverTests {
    @Test("A clean install: one update per package in apt's order, each succeeded with its versions, bars that never go back, every bar and the job at 100 %")
    func cleanInstall() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-base"),
            TestPackage(name: "lab-app", depends: "lab-base"),
            TestPackage(name: "lab-tool"),
        ])
        let run = try APTJobRun(PackageJob(request: .install(["lab-app", "lab-tool"]), aptConfig: apt.configuration))
        let job = try await run.completion()

        #expect(job.descriptor.updates.map(\.id).sorted() == ["lab-app", "lab-base", "lab-tool"])
        #expect(job.result?.resultCode == .succeeded, "\(job.updates.map { $0.result.reason ?? "" })")
        #expect(job.percent == 100)
        for (index, update) in job.updates.enumerated() {
            let name = update.update.id
            #expect(update.result.resultCode == .succeeded, "\(name): \(update.result.reason ?? "")")
            #expect(update.update.package == PackageChange(package: name, action: .install, newVersion: "1.0", architecture: "all"))
            let percents = run.progress(of: index).compactMap(\.updatePercent)
            #expect(zip(percents, percents.dropFirst()).allSatisfy { $0 <= $1 }, "\(name)'s bar went back: \(percents)")
            #expect(percents.last == 100, "\(name)'s bar ended at \(percents.last.map { "\($0)" } ?? "nothing")")
        }
        let jobPercents = run.events.all.compactMap { event -> Double? in
            guard case .progress(let report) = event.kind else { return nil }
            return report.jobPercent
        }
        #expect(zip(jobPercents, jobPercents.dropFirst()).allSatisfy { $0 <= $1 }, "the job's bar went back: \(jobPercents)")

        let states = try apt.states()
        #expect(["lab-app", "lab-base", "lab-tool"].allSatisfy { states[$0]?.status == "ii" && states[$0]?.version == "1.0" })
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("An upgrade over a locally changed conffile: succeeded, the local change kept, and the package said so")
    func conffileKept() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let path = "/etc/lab-conf.conf"
        try apt.publish([TestPackage(name: "lab-conf", files: [path: "setting = 1\n"], conffiles: [path])])
        try apt.aptGet(["-y", "install", "lab-conf"], check: true)
        try "setting = mine\n".write(toFile: apt.root + path, atomically: true, encoding: .utf8)
        try apt.publish([TestPackage(name: "lab-conf", version: "2.0", files: [path: "setting = 2\n"], conffiles: [path])])

        let run = try APTJobRun(PackageJob(request: .upgrade, aptConfig: apt.configuration))
        #expect(run.plan.updates.map(\.title) == ["lab-conf 1.0 → 2.0"])
        let job = try await run.completion()

        #expect(job.result?.resultCode == .succeeded, "\(job.updates.map { $0.result.reason ?? "" })")
        #expect(try String(contentsOfFile: apt.root + path, encoding: .utf8) == "setting = mine\n", "the local change was replaced")
        let messages = run.messages(of: try run.index(of: "lab-conf"))
        #expect(messages.contains { $0.hasPrefix("configuration file \(path) kept") }, "\(messages)")
        #expect(try apt.states()["lab-conf"]?.version == "2.0")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("A failing postinst: that package fails in apt's words, its dependant fails on dependency problems, an independent one succeeds; the job succeeded with errors")
    func failingPostinst() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-bad", postinst: "exit 1"),
            TestPackage(name: "lab-dep", depends: "lab-bad"),
            TestPackage(name: "lab-free"),
        ])
        let run = try APTJobRun(PackageJob(request: .install(["lab-dep", "lab-free"]), aptConfig: apt.configuration))
        let job = try await run.completion()

        let bad = job.updates[try run.index(of: "lab-bad")].result
        let dependant = job.updates[try run.index(of: "lab-dep")].result
        let free = job.updates[try run.index(of: "lab-free")].result
        #expect(bad.resultCode == .failed)
        #expect(bad.reason?.contains("post-installation script") == true, "\(bad.reason ?? "")")
        #expect(dependant.resultCode == .failed)
        #expect(dependant.reason?.contains("dependency problems") == true, "\(dependant.reason ?? "")")
        #expect(free.resultCode == .succeeded, "\(free.reason ?? "")")
        // Rule 16: a mix of failed and succeeded updates.
        #expect(job.result?.resultCode == .succeededWithErrors)

        let states = try apt.states()
        #expect(states["lab-free"]?.status == "ii")
        #expect(states["lab-bad"]?.status != "ii" && states["lab-dep"]?.status != "ii", "\(states)")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("A package asking for a reboot beside one that does not: only its update requires one, and so does the job")
    func rebootPerPackage() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-kernel", postinst: TestPackage.rebootRequestingPostinst),
            TestPackage(name: "lab-plain"),
        ])
        let run = try APTJobRun(PackageJob(request: .install(["lab-kernel", "lab-plain"]), aptConfig: apt.configuration))
        let job = try await run.completion()

        #expect(job.result?.resultCode == .succeeded, "\(job.updates.map { $0.result.reason ?? "" })")
        #expect(job.updates[try run.index(of: "lab-kernel")].result.rebootRequired)
        #expect(!job.updates[try run.index(of: "lab-plain")].result.rebootRequired)
        #expect(job.result?.rebootRequired == true)
        #expect(try String(contentsOfFile: apt.root + "/run/reboot-required.pkgs", encoding: .utf8) == "lab-kernel\n")
        // The fingerprint covers the host's /run/reboot-required and reboot-required.pkgs.
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
