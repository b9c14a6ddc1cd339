import InstallEngine
import InstallEngineTesting
import Testing
import TestProcessSupport

@Suite("Rules 10–13: abort")
struct InstallerAbortTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    @Test("Rules 10–11: requestAbort returns at once; running update aborted, the rest never start")
    func abortRunningJob() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let recorder = CallbackRecorder()
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a"), update("b"), update("c")],
                                             onProgress: recorder.onProgress, onCompleted: recorder.onCompleted)
        await backend.waitUntilStarted("a")
        job.requestAbort()
        job.requestAbort(force: false) // idempotent apart from the escalation of rule 12
        let result = try await installer.endInstall(job)
        #expect(result.resultCode == .aborted)
        #expect(result.updateResults[0].resultCode == .aborted)
        #expect(result.updateResults[0].hResult == .operationCancelled)
        #expect(result.updateResults[0].hResult.description == "0x80242008")
        #expect(result.updateResults[1].resultCode == .aborted)
        #expect(result.updateResults[1].hResult == .callCancelled)
        #expect(result.updateResults[2].hResult.description == "0x8024000B")
        #expect(backend.startedUpdateIDs == ["a"])
        try await job.cleanUp()
        #expect(recorder.completedCount == 1)
        #expect(recorder.changes.contains(.abortRequested(force: false)))
    }

    @Test("Rule 11: an update that exits 0 after the request keeps its real result")
    func exitZeroKeepsResult() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(ending: .whenReleased, onTerminate: .end(.exited(0))))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a", reboot: .always), update("b")])
        await backend.waitUntilStarted("a")
        job.requestAbort()
        let result = try await installer.endInstall(job)
        #expect(result.resultCode == .aborted)
        #expect(result.updateResults[0].resultCode == .succeeded)
        #expect(result.updateResults[1].hResult == .callCancelled)
        #expect(result.rebootRequired, "rebootRequired still reflects an update that did install")
    }

    @Test("Rule 11: a child that ignores SIGTERM is killed after the grace period")
    func graceThenKill() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(ending: .whenReleased, onTerminate: .ignore))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a", abortGrace: .milliseconds(50))])
        await backend.waitUntilStarted("a")
        job.requestAbort()
        let result = try await installer.endInstall(job)
        #expect(result.updateResults[0].resultCode == .aborted)
        #expect(result.updateResults[0].unmappedResultCode == 128 + 9)
    }

    @Test("Rule 12: a second request escalates to an immediate kill")
    func secondRequestEscalates() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(ending: .whenReleased, onTerminate: .ignore))
        let recorder = CallbackRecorder()
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a", abortGrace: .seconds(3600))], onProgress: recorder.onProgress,
                                             onCompleted: recorder.onCompleted)
        await backend.waitUntilStarted("a")
        job.requestAbort()
        #expect(!job.isCompleted)
        job.requestAbort()
        let result = try await installer.endInstall(job)
        #expect(result.updateResults[0].unmappedResultCode == 128 + 9)
        // The callbacks come on their own queue, the completed one last (rule 8): endInstall can
        // return before they are delivered (a full suite at load missed both aborts once).
        #expect(await eventually { recorder.completedCount == 1 })
        #expect(recorder.changes.filter { if case .abortRequested = $0 { true } else { false } }
            == [.abortRequested(force: false), .abortRequested(force: true)])
    }

    @Test("Rule 13: abort before the first update starts completes with every update aborted")
    func abortBeforeStart() async throws {
        // "a" runs until released (or signalled): on a loaded machine the runner could otherwise
        // finish both updates before the request lands.
        let backend = ScriptedBackend(defaultScript: UpdateScript(ending: .whenReleased))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a"), update("b")])
        job.requestAbort()
        let result = try await installer.endInstall(job)
        // The runner may have started "a" before the request landed (then SIGTERM ends it);
        // whatever never started is callCancelled.
        #expect(result.resultCode == .aborted)
        #expect(result.updateResults.last?.hResult == .callCancelled)
    }

    @Test("Rule 13: abort of a completed job is a no-op")
    func abortCompletedJob() async throws {
        let recorder = CallbackRecorder()
        let installer = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        let job = try installer.beginInstall([update("a")], onProgress: recorder.onProgress)
        let before = try await installer.endInstall(job)
        job.requestAbort()
        job.requestAbort()
        let after = try await installer.endInstall(job)
        #expect(before == after)
        #expect(after.resultCode == .succeeded)
        #expect(!recorder.changes.contains { if case .abortRequested = $0 { true } else { false } })
    }
}
