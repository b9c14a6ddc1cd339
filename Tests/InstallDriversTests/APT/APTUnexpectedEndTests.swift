import Glibc
import InstallEngine
import Testing

@testable import InstallDrivers

/// Rule 25a's pure half: how installtop tells a kill from outside (apt-get's own death by a
/// signal, or dpkg's as apt-get reports it) from apt failing on its own, and how it says it.
@Suite("apt: a kill from outside is told from apt's own failure")
struct APTUnexpectedEndTests {
    @Test("apt-get's report of dpkg's death gives the signal when it says one; its other errors and other programs' deaths are none",
          arguments: [
              ("E: Sub-process /usr/bin/dpkg exited unexpectedly", true, Int32?.none),
              ("E: Sub-process /usr/bin/dpkg received a segmentation fault.", true, SIGSEGV),
              ("Sub-process /usr/bin/dpkg received signal 15.", true, 15),
              ("E: Sub-process /opt/root/usr/bin/dpkg received signal 9.", true, 9),
              ("E: Sub-process /usr/bin/dpkg returned an error code (1)", false, nil),
              ("E: Sub-process /usr/bin/apt-listchanges exited unexpectedly", false, nil),
              ("lab-k2: Sub-process /usr/bin/dpkg received signal 9.", false, nil),
          ] as [(String, Bool, Int32?)])
    func dpkgDeath(_ line: String, _ died: Bool, _ signal: Int32?) {
        let death = APTUnexpectedEnd.dpkgDeath(in: line)
        #expect((death != nil) == died && death?.signal == signal && (death == nil || death?.program == "dpkg"))
    }

    @Test("apt-get killed is its own death; dpkg killed is the one apt-get reported; exit 100 alone is apt's failure, not a kill")
    func detection() {
        let dpkgDied = APTUnexpectedEnd(program: "dpkg", signal: nil)
        #expect(APTUnexpectedEnd(outcome: .signaled(9), dpkgDeath: nil, stopSent: false)?.program == "apt-get")
        #expect(APTUnexpectedEnd(outcome: .signaled(9), dpkgDeath: dpkgDied, stopSent: false)?.program == "apt-get", "apt-get's death is what installtop saw")
        #expect(APTUnexpectedEnd(outcome: .exited(100), dpkgDeath: dpkgDied, stopSent: false) == dpkgDied)
        #expect(APTUnexpectedEnd(outcome: .exited(100), dpkgDeath: nil, stopSent: false) == nil)
        #expect(APTUnexpectedEnd(outcome: .exited(0), dpkgDeath: nil, stopSent: false) == nil)
        // SIGINT is the one signal installtop sends apt-get, for a stop: apt-get's end by it is
        // the stop's then, not a kill from outside; without a stop it came from outside.
        #expect(APTUnexpectedEnd(outcome: .signaled(SIGINT), dpkgDeath: nil, stopSent: true) == nil)
        #expect(APTUnexpectedEnd(outcome: .signaled(SIGINT), dpkgDeath: nil, stopSent: false)?.signal == SIGINT)
        #expect(APTUnexpectedEnd(outcome: .signaled(SIGKILL), dpkgDeath: nil, stopSent: true)?.signal == SIGKILL)
    }

    @Test("The sentence names the program, the signal and where dpkg was")
    func sentence() {
        #expect(APTUnexpectedEnd(program: "dpkg", signal: nil).sentence == "dpkg was killed by a signal")
        var end = APTUnexpectedEnd(program: "dpkg", signal: 9)
        #expect(end.sentence == "dpkg was killed by signal 9 (Killed)")
        end.place = APTUnexpectedEnd.during(script: "postinst", of: "lab-k2")
        #expect(end.sentence == "dpkg was killed by signal 9 (Killed) during lab-k2's postinst")
        end.place = APTUnexpectedEnd.whileDpkg(.configuring, "lab-k2")
        #expect(end.sentence == "dpkg was killed by signal 9 (Killed) while dpkg was configuring lab-k2")
    }

    @Test("The run state keeps dpkg's death as apt-get reported it, from its output")
    func runStateKeepsDpkgSignal() {
        let change = PackageChange(package: "lab-k2", action: .install, newVersion: "1.0")
        let plan = APTPlan(job: PackageJob(request: .install(["lab-k2"])),
                           environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
                           changes: [change], downloads: [])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = state.outputLine("E: Sub-process /usr/bin/dpkg returned an error code (1)", on: .stderr)
        #expect(state.dpkgDeath == nil)
        _ = state.outputLine("E: Sub-process /usr/bin/dpkg exited unexpectedly", on: .stderr)
        #expect(state.dpkgDeath == APTUnexpectedEnd(program: "dpkg", signal: nil))
    }
}
