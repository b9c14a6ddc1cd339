import APTTestSupport
import Foundation
@testable import InstallDrivers
import InstallEngine
import Synchronization
import Testing

/// The end of a graceful stop that left apt's dependencies unmet with dpkg consistent (rule 24
/// where apt's dependencies hold): a package of the plan that needs, at its own version, one
/// the stop let through is installed at the plan's version, so the pair ends together. The
/// state is the one a stop between apt's dpkg runs leaves (apt upgraded, the old apt-utils
/// still needing the old apt): made here by dpkg itself, in a private root.
@Suite("apt: a graceful stop's end keeps exact-version pairs together", .serialized)
struct APTGracefulStopCompanionTests {
    @Test("dpkg consistent, lab-utils 1.0 left needing lab-core 1.0 beside lab-core 2.0: installed at 2.0, apt's mark kept, apt-get check passes")
    func finishesTheStrandedHalf() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        func lab(_ version: String) -> [TestPackage] {
            [
                TestPackage(name: "lab-core", version: version),
                TestPackage(name: "lab-utils", version: version, depends: "lab-core (= \(version))"),
                TestPackage(name: "lab-top", version: version, depends: "lab-utils"),
            ]
        }
        try apt.publish(lab("1.0"))
        try apt.aptGet(["install", "-y", "lab-top"], check: true)
        try apt.publish(lab("2.0"))
        // What the stop left: lab-core upgraded by dpkg alone, lab-utils (automatic) still at 1.0.
        let core = apt.repository + "/" + TestPackage(name: "lab-core", version: "2.0").fileName
        try TestCommand.check(["/usr/bin/dpkg", "--root=\(apt.root)", "--admindir=\(apt.root)/var/lib/dpkg", "--force-script-chrootless",
                               "--log=\(apt.root)/var/log/dpkg.log", "-i", core])
        #expect(try apt.aptGet(["check", "-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache="]).status != 0, "the stranded state to start from")
        #expect(try apt.audit().isEmpty)

        let environment = try APTEnvironment.resolve(aptConfig: apt.configuration)
        let said = Mutex<[String]>([])
        let repair = APTRepair(environment: environment, aptGet: PrivateAPTRoot.aptGet) { report in
            if case .output(_, let line) = report { said.withLock { $0.append(line) } }
        }
        let plan = [
            PackageChange(package: "lab-core", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
            PackageChange(package: "lab-utils", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
            PackageChange(package: "lab-top", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
        ]
        let outcome = repair.afterGracefulStop(plan: plan)

        let lines = said.withLock { $0 }
        #expect(!outcome.leftBroken, "\(outcome.verdict)\n\(lines.joined(separator: "\n"))")
        #expect(outcome.verdict == "what the stop left pending is done: dpkg is consistent (dpkg --audit is clean, apt-get check passes)")
        #expect(outcome.steps.contains("apt-get install lab-utils=2.0 ran"), "\(outcome.steps)")
        #expect(lines.contains("installtop: finishing what needs a package the stop let through at its own version: apt-get install lab-utils=2.0"),
                "\(lines)")
        let states = try apt.states()
        #expect(states["lab-utils"]?.version == "2.0" && states["lab-utils"]?.status == "ii", "\(states)")
        #expect(states["lab-top"]?.version == "1.0", "only what was stranded: \(states)")
        #expect(try apt.aptGet(["check", "-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache="]).status == 0, "apt's dependencies hold")
        let automatic = try TestCommand.check(["/usr/bin/apt-mark", "showauto"], environment: apt.environment).stdout
        #expect(automatic.split(separator: "\n").contains("lab-utils"), "lab-utils stays automatic: \(automatic)")
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
