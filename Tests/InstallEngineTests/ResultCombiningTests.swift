import InstallEngine
import Testing

@Suite("Rule 16: a job's result from its updates' results")
struct ResultCombiningTests {
    private func results(_ codes: OperationResultCode...) -> [UpdateInstallationResult] {
        codes.map { UpdateInstallationResult(resultCode: $0) }
    }

    @Test func allSucceededIsSucceeded() {
        let result = InstallationResult.combining(results(.succeeded, .succeeded), abortRequested: false)
        #expect(result.resultCode == .succeeded)
        #expect(result.hResult == .ok)
    }

    @Test func everyUpdateFailedIsFailedWithAllUpdatesFailed() {
        let result = InstallationResult.combining(results(.failed, .failed), abortRequested: false)
        #expect(result.resultCode == .failed)
        #expect(result.hResult == .allUpdatesFailed)
        #expect(result.hResult.description == "0x80240022")
    }

    @Test func aMixIsSucceededWithErrors() {
        #expect(InstallationResult.combining(results(.succeeded, .failed), abortRequested: false).resultCode == .succeededWithErrors)
        #expect(InstallationResult.combining(results(.succeededWithErrors), abortRequested: false).resultCode == .succeededWithErrors)
        #expect(InstallationResult.combining(results(.succeeded, .aborted), abortRequested: false).resultCode == .succeededWithErrors)
    }

    @Test func anAbortThatStoppedAnUpdateWinsOverEverything() {
        #expect(InstallationResult.combining(results(.succeeded, .aborted), abortRequested: true).resultCode == .aborted)
        #expect(InstallationResult.combining(results(.failed, .aborted), abortRequested: true).resultCode == .aborted)
        // A forced abort killed processes: aborted, even when a repair finished every update.
        #expect(InstallationResult.combining(results(.succeeded, .succeeded), abortRequested: true, abortForced: true).resultCode == .aborted)
    }

    @Test("An abort that came when nothing was left to stop: the job's result follows its updates'")
    func anAbortThatStoppedNothingLeavesTheResults() {
        #expect(InstallationResult.combining(results(.succeeded, .succeeded), abortRequested: true).resultCode == .succeeded)
        #expect(InstallationResult.combining(results(.succeeded, .failed), abortRequested: true).resultCode == .succeededWithErrors)
    }

    @Test func rebootRequiredIsTheOrOfTheUpdates() {
        var updates = results(.succeeded, .succeeded)
        updates[1].rebootRequired = true
        #expect(InstallationResult.combining(updates, abortRequested: false).rebootRequired)
        #expect(!InstallationResult.combining(results(.succeeded), abortRequested: false).rebootRequired)
    }
}
