import InstallEngine
import Testing

@Suite("Debian version order (deb-version(7))")
struct DebianVersionTests {
    /// Pairs in ascending order, each checked both ways; the expectations are `dpkg
    /// --compare-versions`' answers.
    @Test("each pair is older-newer, as dpkg --compare-versions says", arguments: [
        ("1.0", "1.1"), ("1.0", "1.0-1"), ("1.0~rc1", "1.0"), ("1.0~~", "1.0~"), ("1.9", "1.10"),
        ("5.36.0-7+deb12u3", "5.36.0-7+deb12u4"), ("2026b-0+deb12u1", "2026f-0+deb12u1"), ("3.0.20-1~deb12u2", "3.0.22-1~deb12u2"),
        ("10.42-1", "10.42-1+deb12u2"), ("1:0.1", "2:0.0"), ("9.9", "1:0.1"), ("1.0a", "1.0b"), ("1.0", "1.0a"), ("1.0a+", "1.0+"),
        ("1.001", "1.2"), ("2.6.1", "2.6.2"),
    ])
    func ascending(_ pair: (String, String)) {
        #expect(DebianVersion.compare(pair.0, pair.1) < 0, "\(pair.0) < \(pair.1)")
        #expect(DebianVersion.compare(pair.1, pair.0) > 0, "\(pair.1) > \(pair.0)")
    }

    @Test("equal versions, leading zeros and a missing epoch included")
    func equal() {
        #expect(DebianVersion.compare("1.01", "1.1") == 0)
        #expect(DebianVersion.compare("0:1.0-1", "1.0-1") == 0)
        #expect(DebianVersion.compare("2.6.2", "2.6.2") == 0)
    }

    @Test("an upgrade to an older version is a downgrade; an undo of an undo upgrades again")
    func downgrade() {
        #expect(PackageChange(package: "apt", action: .upgrade, oldVersion: "2.6.2", newVersion: "2.6.1").isDowngrade)
        #expect(!PackageChange(package: "apt", action: .upgrade, oldVersion: "2.6.1", newVersion: "2.6.2").isDowngrade)
        #expect(!PackageChange(package: "apt", action: .install, newVersion: "2.6.1").isDowngrade)
        let warning = PackageChange.essentialWarning([
            PackageChange(package: "perl-base", action: .upgrade, oldVersion: "5.36.0-7+deb12u3", newVersion: "5.36.0-7+deb12u4", essential: true),
        ])
        #expect(warning == "upgrades an Essential package: perl-base")
    }
}
