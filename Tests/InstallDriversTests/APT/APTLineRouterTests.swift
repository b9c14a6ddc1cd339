import InstallEngine
import Testing

@testable import InstallDrivers

/// Which package apt's and dpkg's words are about, by plan position: Status-Fd through the
/// tracker, dpkg's output by the package it names, and which packages the output has passed.
@Suite("apt: routing lines to the plan's packages")
struct APTLineRouterTests {
    private static let plan = APTPlan(
        job: PackageJob(request: .install(["lab-base", "lab-app", "lab-tool"])),
        environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
        changes: ["lab-base", "lab-app", "lab-tool"].map { PackageChange(package: $0, action: .install, newVersion: "1.0") },
        downloads: [])

    @Test("A package is found by its plan position, also under apt's numbered archive name; one outside the plan is not")
    func positions() {
        let router = APTLineRouter(plan: Self.plan)
        #expect(router.index(of: "lab-app") == 1)
        #expect(router.index(of: "00-lab-tool") == 2)
        #expect(router.index(of: "lab-other") == nil)
    }

    @Test("Status-Fd events carry plan positions; the package dpkg's output is on comes first in flight, decided ones not at all")
    func inFlight() {
        var router = APTLineRouter(plan: Self.plan)
        let events = router.consume("pmstatus:lab-base:10:Unpacking lab-base (all)") + router.consume("pmstatus:lab-app:20:Unpacking lab-app (all)")
        #expect(events.map(\.position) == [0, 1])
        #expect(Set(router.inFlight(excluding: [])) == [0, 1])
        router.outputWorks(on: 1)
        #expect(router.inFlight(excluding: []) == [1, 0])
        #expect(router.inFlight(excluding: [1]) == [0])
    }

    @Test("dpkg's output has passed a package it named before, or one Status-Fd spoke of before the one it is on; never the one it is on")
    func passed() {
        var router = APTLineRouter(plan: Self.plan)
        router.statusSpoke(of: 0)
        router.statusSpoke(of: 1)
        #expect(router.hasPassed(0, current: 1))
        #expect(!router.hasPassed(1, current: 1))
        #expect(!router.hasPassed(2, current: 1), "Status-Fd never spoke of it")
        router.outputWorks(on: 2)
        #expect(router.hasPassed(2, current: 0), "named by the output before")
        #expect(router.firstSpokenOf([2, 1, 0]) == 0)
        #expect(router.firstSpokenOf([]) == nil)
    }

    @Test("The package Status-Fd has dpkg on is active until it finishes")
    func active() {
        var router = APTLineRouter(plan: Self.plan)
        router.dpkgWorks(on: 1)
        #expect(router.active == 1)
        router.finished(0)
        #expect(router.active == 1)
        router.finished(1)
        #expect(router.active == nil)
    }
}
