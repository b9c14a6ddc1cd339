import Testing

@testable import InstallDrivers

/// What a dnf job's arming (`--confirm`) reads before anything runs: the helper's `protected`
/// mark on a plan's item, and the files `rpm -V` finds that keep an installed version from
/// being rebuilt for keeping.
@Suite("dnf: protected items and rpm -V's unrebuildable files")
struct DNFArmingFactsTests {
    @Test("An item the helper marks protected is protected; one without the mark (or with false) is not")
    func protectedMark() throws {
        let marked = #"{"event":"item","action":"install","name":"dnf","arch":"noarch","old":null,"new":"4.14-1","size":10,"repo":"lab","protected":true}"#
        let plain = #"{"event":"item","action":"install","name":"lab-a","arch":"noarch","old":null,"new":"1.0-1","size":10,"repo":"lab"}"#
        let unmarked = #"{"event":"item","action":"install","name":"lab-b","arch":"noarch","old":null,"new":"1.0-1","size":10,"repo":"lab","protected":false}"#
        var reading = DNFPlanReading(job: DNFJob(request: .install(["dnf", "lab-a", "lab-b"])))
        for line in [marked, plain, unmarked] {
            let early = reading.read(line)
            #expect(early == nil)
        }
        let planned = reading.read(#"{"event":"planned","count":3,"download":30,"already":0}"#)
        let plan = try #require(planned)
        #expect(plan.items.map(\.isProtected) == [true, false, false])
    }

    @Test("rpm -V: missing files and a changed size, digest or link count; %config and %ghost files, mode, owner and time alone, and other lines do not")
    func unrebuildableFiles() {
        let output = """
            missing     /usr/share/lab-app/version
            S.5....T.    /usr/bin/lab-app
            ....L....    /usr/lib/lab-app/current
            S.5....T.  c /etc/lab-app.conf
            missing   c /etc/lab-app.d/extra.conf
            S.5......  g /var/log/lab-app.log
            .M.......    /usr/bin/lab-tool
            ....UG.T.    /usr/share/lab-app/owned
            .......T.    /usr/share/lab-app/touched
            Unsatisfied dependencies for lab-app-1.0-1.noarch:
            """
        #expect(DNFRPMDatabase.unrebuildable(verifying: output) == [
            "/usr/share/lab-app/version is missing",
            "/usr/bin/lab-app differs from what rpm installed",
            "/usr/lib/lab-app/current differs from what rpm installed",
        ])
        #expect(DNFRPMDatabase.unrebuildable(verifying: "").isEmpty)
    }
}
