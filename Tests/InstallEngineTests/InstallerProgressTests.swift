import InstallEngine
import InstallEngineTesting
import Testing
import TestProcessSupport

@Suite("Rules 5–9: progress and callbacks")
struct InstallerProgressTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    @Test("Rule 5: a snapshot never changes after it is returned")
    func snapshotIsImmutable() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(
            reports: [.progress(percent: 40, message: "half")], ending: .whenReleased))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a"), update("b")])
        #expect(await eventually { job.progress().currentUpdatePercentComplete == 40 })
        let snapshot = job.progress()
        backend.release("a")
        #expect(await eventually { job.progress().currentUpdateIndex == 1 })
        #expect(snapshot.currentUpdateIndex == 0)
        #expect(snapshot.currentUpdatePercentComplete == 40)
        #expect(snapshot.percentComplete == 20)
        #expect(snapshot.currentUpdateMessage == "half")
        #expect(snapshot.updateResult(at: 0).resultCode == .inProgress)
        #expect(snapshot.updateResult(at: 1).resultCode == .notStarted)
        backend.release("b")
        _ = try await installer.endInstall(job)
    }

    @Test("Rule 6: equal weight per update, and percentages never go down")
    func percentagesAreMonotonic() async throws {
        let reports: [UpdateReport] = [
            .progress(percent: 50, message: nil), .progress(percent: 30, message: "back?"),
            .progress(percent: 80, message: nil), .progress(percent: 250, message: nil),
        ]
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: reports))
        let recorder = CallbackRecorder()
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a"), update("b")], onProgress: recorder.onProgress, onCompleted: recorder.onCompleted)
        let result = try await installer.endInstall(job)
        #expect(result.resultCode == .succeeded)
        // Every progress callback is delivered before the completed one (rule 8).
        #expect(await eventually { recorder.completedCount == 1 })
        let jobPercents = recorder.snapshots.map(\.percentComplete)
        #expect(jobPercents == jobPercents.sorted(), "job percent went down: \(jobPercents)")
        let firstUpdate = recorder.snapshots.filter { $0.currentUpdateIndex == 0 }.map(\.currentUpdatePercentComplete)
        #expect(firstUpdate == firstUpdate.sorted())
        #expect(firstUpdate.contains(50) && firstUpdate.contains(100))
        // 50% of the first of two updates is 25% of the job.
        #expect(jobPercents.contains(25))
        #expect(job.progress().percentComplete == 100)
    }

    @Test("Rule 7: an update that reports nothing is indeterminate")
    func silentUpdateIsIndeterminate() async throws {
        let backend = ScriptedBackend(scripts: ["quiet": .hold,
                                                "loud": UpdateScript(reports: [.progress(percent: 1, message: nil)], ending: .whenReleased)])
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("quiet"), update("loud")])
        await backend.waitUntilStarted("quiet")
        #expect(job.progress().currentUpdateIsIndeterminate)
        backend.release("quiet")
        #expect(await eventually { job.progress().currentUpdateIndex == 1 && !job.progress().currentUpdateIsIndeterminate })
        backend.release("loud")
        _ = try await installer.endInstall(job)
    }

    @Test("Rule 7: progress: none ignores percentages but keeps status text")
    func progressNoneStaysIndeterminate() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(
            reports: [.progress(percent: 60, message: "working"), .progress(percent: 70, message: nil)], ending: .whenReleased))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a", progress: .none)])
        #expect(await eventually { job.progress().currentUpdateMessage == "working" })
        #expect(job.progress().currentUpdateIsIndeterminate)
        backend.release("a")
        _ = try await installer.endInstall(job)
    }

    @Test("progress: output takes the last NN% of an output line")
    func progressFromOutput() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(
            reports: [.output(.stdout, "Downloading 10% … 37.5%"), .output(.stderr, "at 120% of nothing")],
            ending: .whenReleased))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a", progress: .output)])
        #expect(await eventually { job.progress().currentUpdatePercentComplete == 37.5 })
        backend.release("a")
        _ = try await installer.endInstall(job)
    }

    @Test("Rule 8: callbacks in order, never concurrent; the last progress callback before completion")
    func callbacksAreOrderedAndSerial() async throws {
        let reports = (1...200).map { UpdateReport.progress(percent: Double($0) / 2, message: nil) }
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: reports))
        let recorder = CallbackRecorder()
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall(
            (0..<5).map { update("u\($0)") }, onProgress: recorder.onProgress, onCompleted: recorder.onCompleted)
        _ = try await installer.endInstall(job)
        try cleanUpBlocking(job, timeout: .seconds(60))
        #expect(recorder.completedCount == 1)
        #expect(recorder.maximumConcurrency == 1)
        #expect(recorder.callbacksAfterCompletion == 0)
    }

    @Test("Rule 8: per update, started comes before progress before completed")
    func perUpdateOrder() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: [
            .progress(percent: 10, message: nil), .output(.stdout, "line"), .progress(percent: 90, message: nil)]))
        let recorder = CallbackRecorder()
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a"), update("b")], onProgress: recorder.onProgress, onCompleted: recorder.onCompleted)
        _ = try await installer.endInstall(job)
        try await job.cleanUp()
        #expect(recorder.changes == [
            .updateStarted(index: 0), .progress(index: 0), .output(index: 0, stream: .stdout, line: "line"),
            .progress(index: 0), .updateCompleted(index: 0),
            .updateStarted(index: 1), .progress(index: 1), .output(index: 1, stream: .stdout, line: "line"),
            .progress(index: 1), .updateCompleted(index: 1),
        ])
    }

    @Test("Rule 9: completed fires exactly once, for success, failure and abort; endInstall inside it returns")
    func completedFiresOnce() async throws {
        for script in [UpdateScript.succeed, .fail(), .hold] {
            let backend = ScriptedBackend(defaultScript: script)
            let installer = UpdateInstaller(backend: backend, configuration: configuration)
            let recorder = CallbackRecorder()
            let endedInside = LockedValue(false)
            let job = try installer.beginInstall([update("a")], onCompleted: { job in
                recorder.onCompleted(job)
                Task { if (try? await installer.endInstall(job)) != nil { endedInside.set(true) } }
            })
            if script == .hold { job.requestAbort() }
            _ = try await installer.endInstall(job)
            #expect(await eventually { recorder.completedCount == 1 && endedInside.value })
            try await job.cleanUp()
            #expect(recorder.completedCount == 1)
        }
    }
}

