@testable import InstallHistory
import Testing

/// Which checks regressed between a commit-confirmed job's baseline and the checks after it.
@Suite("Health regressions between before and after")
struct HealthComparisonTests {
    @Test("A command check regresses from passed to failed only; one failing already, or now passing, does not")
    func commandChecks() {
        let before = [HealthObservation(check: "a", passed: true), HealthObservation(check: "b", passed: false, detail: "exit status 1"),
                      HealthObservation(check: "c", passed: false)]
        let after = [HealthObservation(check: "a", passed: false, detail: "exit status 2: broken"),
                     HealthObservation(check: "b", passed: false, detail: "exit status 1"), HealthObservation(check: "c", passed: true),
                     HealthObservation(check: "new", passed: false)]
        #expect(HealthComparison.regressions(before: before, after: after)
                == [HealthRegression(check: "a", before: "passed", after: "failed: exit status 2: broken")])
    }

    @Test("Ports regress when one stops listening, failed units when one more fails; a check that could not run is not compared")
    func setChecks() {
        let before = [HealthObservation.seen(HealthComparison.listeningPorts, ["tcp/22", "tcp/8080"]),
                      HealthObservation.seen(HealthComparison.failedUnits, ["old.service"])]
        let after = [HealthObservation.seen(HealthComparison.listeningPorts, ["tcp/22", "tcp/9090"]),
                     HealthObservation.seen(HealthComparison.failedUnits, ["new.service", "old.service"])]
        #expect(HealthComparison.regressions(before: before, after: after) == [
            HealthRegression(check: HealthComparison.listeningPorts, before: "tcp/22 tcp/8080", after: "tcp/22 tcp/9090 (gone: tcp/8080)"),
            HealthRegression(check: HealthComparison.failedUnits, before: "old.service", after: "new.service old.service (new: new.service)"),
        ])
        let notRun = [HealthObservation.notRun(HealthComparison.failedUnits, because: "systemd is not running here")]
        #expect(HealthComparison.regressions(before: notRun, after: after).isEmpty)
        #expect(HealthComparison.regressions(before: before, after: before).isEmpty)
    }
}
