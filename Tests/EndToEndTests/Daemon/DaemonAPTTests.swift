import APTTestSupport
import Foundation
import Testing
import TestProcessSupport

/// An apt job submitted to `serve`: the engine asks apt for the plan and runs it, in a private
/// root; a refusal comes back before anything is queued.
@Suite("daemon: apt jobs", .serialized)
struct DaemonAPTTests {
    @Test("submit of a manifest's apt job: the engine plans it, one update per package, all installed")
    func submitAnAPTJob() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base")])
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let manifest = try daemon.folder.write("apt.yaml", """
            jobs:
              - name: Lab
                apt: {install: [lab-app], apt_config: \(apt.configuration)}
              - name: Nothing
                apt: {install: [no-such-package], apt_config: \(apt.configuration)}
            """)

        let refused = try await daemon.run(["submit", manifest])
        #expect(refused.status == 1 && refused.stderr.contains("E: Unable to locate package no-such-package"), "\(refused.stderr)")
        #expect(try await daemon.statusJobs().isEmpty, "all or nothing: the good job was not queued either")

        try daemon.folder.write("apt.yaml", """
            jobs:
              - name: Lab
                apt: {install: [lab-app], apt_config: \(apt.configuration)}
            """)
        let submitted = try await daemon.run(["submit", manifest, "--yes"])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stdout.contains("job 1 queued: Lab (apt install lab-app"), "\(submitted.stdout)")
        try await daemon.waitForJob(1, state: "succeeded")
        let job = try #require(try await daemon.statusJob(1))
        let updates = try #require(job["updates"] as? [[String: Any]])
        #expect(updates.map { $0["id"] as? String } == ["lab-base", "lab-app"])
        #expect((job["name"] as? String)?.hasPrefix("Lab · 2 to install") == true, "\(job)")
        #expect(try apt.states().filter { $0.value.status == "ii" }.count == 2)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("submit without --yes: the apt job waits with its plan until confirm; a declined one changes nothing")
    func submittedAPTJobsAwaitAYes() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base")])
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let manifest = try daemon.folder.write("apt.yaml", """
            jobs:
              - name: Lab
                apt: {install: [lab-app], apt_config: \(apt.configuration)}
            """)

        let declined = try await daemon.run(["submit", manifest])
        #expect(declined.status == 0 && declined.stdout.contains("job 1 queued: Lab (apt install lab-app")
                && declined.stdout.contains("awaits a yes: installtop confirm 1"), "\(declined.stdout)\(declined.stderr)")
        let waiting = try #require(try await daemon.statusJob(1))
        #expect(waiting["state"] as? String == "queued" && waiting["awaitsConfirmation"] as? Bool == true, "\(waiting)")
        #expect((waiting["updates"] as? [[String: Any]])?.count == 2, "the engine's plan: \(waiting)")
        #expect(try await daemon.run(["confirm", "1", "--decline"]).status == 0)
        #expect(await eventually(timeout: .seconds(60)) { (try? await daemon.statusJobs().isEmpty) == true }, "declined, it leaves")
        #expect(try apt.states().filter { $0.value.status == "ii" }.isEmpty, "nothing was installed")
        #expect(try apt.audit().isEmpty)

        #expect(try await daemon.run(["submit", manifest]).status == 0)
        #expect(try await daemon.run(["confirm", "2"]).status == 0)
        try await daemon.waitForJob(2, state: "succeeded")
        #expect(try apt.states().filter { $0.value.status == "ii" }.count == 2)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
