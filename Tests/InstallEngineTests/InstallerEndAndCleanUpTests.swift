import InstallEngine
import InstallEngineTesting
import Testing

@Suite("Rules 14–15: end and clean-up")
struct InstallerEndAndCleanUpTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    @Test("Rule 14: endInstall waits and a second call returns the same result")
    func endInstallTwice() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a")])
        let waiter = Task { try await installer.endInstall(job) }
        await backend.waitUntilStarted("a")
        backend.release("a")
        let first = try await waiter.value
        let second = try await installer.endInstall(job)
        #expect(first == second)
        #expect(first.resultCode == .succeeded)
    }

    @Test("Rule 14: a job of another installer, or of the other operation, is invalidOperation")
    func endWrongJob() async throws {
        let one = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        let two = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        let install = try one.beginInstall([update("a")])
        await #expect(throws: InstallerError.self) { try await two.endInstall(install) }
        await #expect(throws: InstallerError.self) { try await one.endUninstall(install) }
        _ = try await one.endInstall(install)
        let uninstall = try one.beginUninstall([update("a")])
        await #expect(throws: InstallerError.self) { try await one.endInstall(uninstall) }
        let result = try await one.endUninstall(uninstall)
        #expect(result.resultCode == .succeeded)
    }

    @Test("Rule 15: cleanUp waits for completion; afterwards no callback fires; idempotent")
    func cleanUpWaitsAndReleases() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let recorder = CallbackRecorder()
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a")], onProgress: recorder.onProgress, onCompleted: recorder.onCompleted)
        await backend.waitUntilStarted("a")
        let cleaned = LockedValue(false)
        let cleaner = Task {
            try await job.cleanUp()
            cleaned.set(true)
        }
        #expect(!cleaned.value)
        backend.release("a")
        try await cleaner.value
        #expect(job.isCompleted)
        #expect(recorder.completedCount == 1)
        let count = recorder.changes.count
        job.requestAbort()
        try cleanUpBlocking(job)
        try await job.cleanUp()
        #expect(recorder.changes.count == count)
    }

    @Test("Rule 15: cleanUp from inside a callback throws invalidOperation instead of deadlocking")
    func cleanUpInsideCallback() async throws {
        let thrown = LockedValue<InstallerError?>(nil)
        let installer = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        let job = try installer.beginInstall([update("a")], onProgress: { job, _ in
            do { try job.cleanUp() } catch let error as InstallerError { thrown.update { $0 = $0 ?? error } } catch {}
        })
        _ = try await installer.endInstall(job)
        try await job.cleanUp()
        guard case .invalidOperation = thrown.value else {
            Issue.record("expected invalidOperation, got \(String(describing: thrown.value))")
            return
        }
    }

    @Test("Rule 15: cleanUp(timeout:) gives up on a job that does not finish")
    func cleanUpTimeout() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a")])
        await #expect(throws: InstallerError.timedOut) { try await job.cleanUp(timeout: .milliseconds(30)) }
        #expect(throws: InstallerError.timedOut) { try cleanUpBlocking(job, timeout: .milliseconds(30)) }
        backend.release("a")
        try await job.cleanUp(timeout: .seconds(60))
    }
}
