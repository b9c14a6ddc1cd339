import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// While apt fetches its files (from the private root's `file:` repository, which apt copies
/// into its archive cache and reports on Status-Fd as `dlstatus` lines) no package runs: the
/// job's status text says what apt does, from apt's own lines and the plan's download list.
@Suite("apt: the job's status text while apt downloads", .serialized)
struct APTDriverDownloadStatusTests {
    @Test("Each file apt fetches is said on the job (`downloading N of M · DONE of TOTAL`), then cleared once dpkg starts")
    func downloadStatus() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base")])
        // apt waits after its downloads until the job has said the last one: on a loaded
        // machine the poller may otherwise read apt's dlstatus lines only after dpkg's first
        // output, when they are late and not said.
        let (_, released) = try apt.holdInPreInstallHook()
        let run = try APTJobRun(PackageJob(request: .install(["lab-app"]), aptConfig: apt.configuration))
        let saidAll = await eventually {
            run.events.all.contains { if case .progress(let report) = $0.kind { report.jobMessage?.hasPrefix("downloading 2 of 2") == true } else { false } }
        }
        try Data().write(to: URL(fileURLWithPath: released))
        #expect(saidAll, "the last download was not said while apt waited")
        let job = try await run.completion()
        #expect(job.result?.resultCode == .succeeded, "\(job.updates.map { $0.result.reason ?? "" })")

        let total = run.plan.downloads.reduce(Int64(0)) { $0 + $1.size }
        #expect(run.plan.downloads.count == 2 && total > 0, "\(run.plan.downloads)")
        let progress = run.events.all.compactMap { event -> UpdateProgress? in
            guard case .progress(let report) = event.kind else { return nil }
            return report
        }
        let said = progress.compactMap(\.jobMessage)
        #expect(said.first?.hasPrefix("downloading 1 of 2 · ") == true, "\(said)")
        // Every line names the whole download, sized from the plan. (Which is the last one said
        // depends on the pipes: a dlstatus line read after dpkg's output started a package is
        // not said, since the download is over by then.)
        #expect(said.allSatisfy { $0.hasPrefix("downloading ") && $0.contains(" of 2 · ") && $0.hasSuffix(" of " + ByteCountText.text(total)) },
                "\(said)")
        // Every text said comes before the first package's verdict: dpkg's first line clears it.
        let firstVerdict = try #require(run.events.all.firstIndex { if case .updateCompleted = $0.kind { true } else { false } })
        let lastSaid = try #require(run.events.all.lastIndex { if case .progress(let report) = $0.kind { report.jobMessage != nil } else { false } })
        #expect(lastSaid < firstVerdict)
        #expect(job.jobMessage == nil, "the download status was cleared")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
