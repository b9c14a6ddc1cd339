import EngineWire
import Foundation
import PatchPolicy
import Testing
@testable import installtop

/// Which pending upgrades a night takes: the policy's packages, old enough by when the host's
/// engine first listed them (Documentation/POLICY.md, "Age").
@Suite("A night's choice of a host's pending upgrades")
struct NightPackageChoiceTests {
    private static let now = 1_800_000_000
    private static func package(_ name: String, security: Bool = false, seenHoursAgo: Int?, installed: Bool = true) -> PendingPackage {
        PendingPackage(name: name, oldVersion: installed ? "1" : nil, newVersion: "2",
                       origin: security ? "Debian-Security:12/stable-security" : "Debian:12/stable",
                       firstSeen: seenHoursAgo.map { Date(timeIntervalSince1970: TimeInterval(now - $0 * 3600)) })
    }

    @Test("Without an age gate every selected upgrade of an installed package is taken, dated or not; a new package never is")
    func noAgeGate() {
        let packages = [Self.package("lab-a", seenHoursAgo: nil), Self.package("lab-s", security: true, seenHoursAgo: 0),
                        Self.package("lab-new", seenHoursAgo: 100, installed: false)]
        #expect(NightPackageChoice(packages, selection: .all, age: AgeGate(), now: Self.now).taken == ["lab-a", "lab-s"])
        #expect(NightPackageChoice(packages, selection: .security, age: AgeGate(), now: Self.now).taken == ["lab-s"])
        #expect(NightPackageChoice(packages, selection: .list(["lab-a", "lab-x"]), age: AgeGate(), now: Self.now).taken == ["lab-a"])
    }

    @Test("With an age gate: old enough is taken, too young waits until its time, security by its own age, undated named and not taken")
    func ageGate() {
        let age = AgeGate(updates: 7 * 86_400, security: 86_400)
        let packages = [Self.package("lab-old", seenHoursAgo: 8 * 24), Self.package("lab-young", seenHoursAgo: 2),
                        Self.package("lab-sec", security: true, seenHoursAgo: 25), Self.package("lab-sec-new", security: true, seenHoursAgo: 1),
                        Self.package("lab-undated", seenHoursAgo: nil)]
        let choice = NightPackageChoice(packages, selection: .all, age: age, now: Self.now)
        #expect(choice.taken == ["lab-old", "lab-sec"])
        #expect(choice.waiting == [.wait(package: "lab-young", until: Self.now - 2 * 3600 + 7 * 86_400),
                                   .wait(package: "lab-sec-new", until: Self.now - 3600 + 86_400)])
        #expect(choice.undated == ["lab-undated"])
        // Exactly old enough is taken.
        let edge = NightPackageChoice([Self.package("lab-edge", seenHoursAgo: 7 * 24)], selection: .all, age: age, now: Self.now)
        #expect(edge.taken == ["lab-edge"])
    }
}
