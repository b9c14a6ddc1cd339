import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import Testing

/// A package that obsoletes an installed one: the plan says both, the run is the plan, the
/// obsoleted package is gone from the rpm database.
@Suite("installtop dnf: obsoletes")
struct DNFObsoletesTests {
    @Test("Installing lab-new removes lab-old, which it obsoletes: two updates, both succeeded")
    func obsoletes() async throws {
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf-obsoletes")
        defer { root.remove() }
        try root.publish([DNFTestLab.old])
        let folder = try TestFolder()
        defer { folder.remove() }
        let arguments = ["--installroot", root.root, "--releasever", root.releaseVersion, "--no-history"]
        #expect(try await installtop(["dnf", "install", "lab-old", "--yes"] + arguments, in: folder).status == 0)
        try root.publish([DNFTestLab.successor])

        let plan = try await installtop(["dnf", "install", "lab-new"] + arguments, in: folder)
        #expect(plan.stdout.contains("Obsoleting (removed):\n  lab-old 1.0-1 (obsoleted by lab-new) [noarch]"), "\(plan.stdout)")
        let run = try await installtop(["dnf", "install", "lab-new", "--yes", "--json"] + arguments, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.jsonEvents()
        let results = Dictionary(events.filter { $0.name == "update.completed" }.compactMap { event in event.string("id").map { ($0, event.string("result") ?? "?") } },
                                 uniquingKeysWith: { _, last in last })
        #expect(results == ["lab-new": "succeeded", "lab-old": "succeeded"], "\(results)")
        #expect(root.installedVersions(of: "lab-old").isEmpty && root.installedVersions(of: "lab-new") == ["1.0-1"])
    }
}
