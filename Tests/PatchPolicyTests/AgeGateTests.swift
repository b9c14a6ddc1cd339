import PatchPolicy
import Testing

/// Taking an update only once its candidate version is old enough; security updates by their own age.
@Suite("Policy: age gate")
struct AgeGateTests {
    static let day = 86_400

    @Test("An update is taken once it is 7 days old, a security update once it is 1 day old")
    func ages() {
        let gate = AgeGate(updates: 7 * Self.day, security: Self.day)
        let seen = 1_000_000
        #expect(gate.decision(package: "nginx", firstSeen: seen, isSecurity: false, now: seen + 6 * Self.day)
            == .wait(package: "nginx", until: seen + 7 * Self.day))
        #expect(gate.decision(package: "nginx", firstSeen: seen, isSecurity: false, now: seen + 7 * Self.day) == .take(package: "nginx"))
        #expect(gate.decision(package: "openssl", firstSeen: seen, isSecurity: true, now: seen + Self.day).isTaken)
        #expect(!gate.decision(package: "openssl", firstSeen: seen, isSecurity: true, now: seen + Self.day - 1).isTaken)
    }

    @Test("Age 0 takes a version at once; one first seen after now (a clock set back) is not old")
    func edges() {
        #expect(AgeGate().decision(package: "curl", firstSeen: 50, isSecurity: false, now: 50).isTaken)
        #expect(!AgeGate().decision(package: "curl", firstSeen: 60, isSecurity: false, now: 50).isTaken)
    }

    @Test("Which packages a night takes: security only, all, or a list")
    func selection() {
        #expect(PackageSelection.security.includes("openssl", isSecurity: true))
        #expect(!PackageSelection.security.includes("vim", isSecurity: false))
        #expect(PackageSelection.all.includes("vim", isSecurity: false))
        #expect(PackageSelection.list(["nginx"]).includes("nginx", isSecurity: false))
        #expect(!PackageSelection.list(["nginx"]).includes("openssl", isSecurity: true))
    }
}
