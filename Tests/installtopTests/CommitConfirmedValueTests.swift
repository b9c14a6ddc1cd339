@testable import InstallDrivers
import InstallEngine
import Testing
@testable import installtop

/// The values behind `--confirm` (issue 57): its durations, the listening ports read from
/// /proc/net/tcp, and the refusal to arm a job whose revert could not be planned.
@Suite("Commit-confirmed: durations, ports and arming refusals")
struct CommitConfirmedValueTests {
    @Test("Durations: 90s, 5m, 1h30m, 2d, a plain number of seconds; nonsense is nil; the countdown rounds up")
    func durations() {
        #expect(ConfirmDuration.seconds("90s") == 90)
        #expect(ConfirmDuration.seconds("5m") == 300)
        #expect(ConfirmDuration.seconds("1h30m") == 5400)
        #expect(ConfirmDuration.seconds("2d") == 172_800)
        #expect(ConfirmDuration.seconds("4") == 4)
        #expect(ConfirmDuration.seconds("2.5") == 2.5)
        for bad in ["", "m", "5x", "5m3", "-3", "h5"] { #expect(ConfirmDuration.seconds(bad) == nil, "\(bad)") }
        #expect(ConfirmDuration.text(0.2) == "1s")
        #expect(ConfirmDuration.text(125) == "2m 05s")
        #expect(ConfirmDuration.text(3700) == "1h 01m")
    }

    @Test("Listening ports: state 0A only, the port in hex after the last colon, per family")
    func ports() {
        let tcp = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
               1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0 100 0 0 10 0
               2: 0100007F:C350 0100007F:0016 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0 100 0 0 10 0
            """
        #expect(ListeningPorts.parse(tcp, family: "tcp") == ["tcp/22", "tcp/8080"])
        let tcp6 = """
              sl  local_address                         remote_address                        st
               0: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A
            """
        #expect(ListeningPorts.parse(tcp6, family: "tcp6") == ["tcp6/22"])
    }

    @Test("Arming is refused for an Essential removal, a package dpkg has half-way, and one without its file list; installs never")
    func refusals() {
        let changes = [
            PackageChange(package: "new", action: .install, newVersion: "1.0"),
            PackageChange(package: "base-files", action: .remove, oldVersion: "12", essential: true),
            PackageChange(package: "perl-base", action: .upgrade, oldVersion: "5.36", newVersion: "5.38", essential: true),
            PackageChange(package: "half", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
            PackageChange(package: "listless", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
            PackageChange(package: "fine", action: .remove, oldVersion: "1.0"),
        ]
        let installed = ["base-files": APTPackageState(status: "ii", version: "12"), "perl-base": APTPackageState(status: "ii", version: "5.36"),
                         "half": APTPackageState(status: "iF", version: "1.0"), "listless": APTPackageState(status: "ii", version: "1.0"),
                         "fine": APTPackageState(status: "ii", version: "1.0")]
        let reasons = ArmingRefusal.reasons(changes, installed: installed) { $0 != "listless" }
        #expect(reasons.count == 3, "\(reasons)")
        #expect(reasons[0].hasPrefix("base-files is Essential"))
        #expect(reasons[1].hasPrefix("half cannot be kept for the revert: dpkg has it"))
        #expect(reasons[2] == "listless 1.0 cannot be kept for the revert: dpkg has no list of its files (info/listless.list)")
        #expect(ArmingRefusal.rebootOnly([PackageChange(package: "linux-image-6.1.0-28-amd64", action: .install, newVersion: "1"),
                                          PackageChange(package: "nginx", action: .install, newVersion: "1")]) == ["linux-image-6.1.0-28-amd64"])
    }
}
