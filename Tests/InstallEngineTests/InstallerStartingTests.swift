import InstallEngine
import InstallEngineTesting
import Testing

@Suite("Rules 1–4: starting a job")
struct InstallerStartingTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    @Test("Rule 1: an empty list is refused with noUpdate and no job is created")
    func emptyListIsRefused() {
        let installer = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        #expect(throws: InstallerError.noUpdate) { try installer.beginInstall([]) }
        #expect(InstallerError.noUpdate.hResult.description == "0x80240024")
        #expect(!installer.isBusy)
    }

    @Test("Rule 2: an exclusive update mixed with others is refused and nothing runs")
    func exclusiveMixIsRefused() {
        let backend = ScriptedBackend()
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        #expect(throws: InstallerError.exclusiveInstallConflict) {
            try installer.beginInstall([update("a", impact: .exclusive), update("b")])
        }
        #expect(InstallerError.exclusiveInstallConflict.hResult.description == "0x80240019")
        #expect(backend.startedUpdateIDs.isEmpty)
    }

    @Test("Rule 2: an exclusive update alone is fine")
    func exclusiveAloneRuns() async throws {
        let installer = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        let result = try await installer.install([update("a", impact: .exclusive)])
        #expect(result.resultCode == .succeeded)
    }

    @Test("Rule 3: beginInstall while busy throws installNotAllowed; free again after completion")
    func busyInstallerRefuses() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let job = try installer.beginInstall([update("a")])
        #expect(installer.isBusy)
        #expect(throws: InstallerError.installNotAllowed) { try installer.beginInstall([update("b")]) }
        #expect(InstallerError.installNotAllowed.hResult.description == "0x80240016")
        await backend.waitUntilStarted("a")
        backend.release("a")
        _ = try await installer.endInstall(job)
        #expect(!installer.isBusy)
        _ = try installer.beginInstall([update("b")])
    }

    @Test("An update without a command for the operation is refused before anything runs")
    func missingCommandIsRefused() {
        let installer = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        let noUninstall = Update(id: "x", installCommand: .argv(["true"]))
        #expect(throws: InstallerError.missingCommand(updateID: "x", operation: .uninstall)) {
            try installer.beginUninstall([noUninstall])
        }
    }

    @Test("Rule 4: the update list is a snapshot; indices are positions in it")
    func updateListIsSnapshotted() async throws {
        let installer = UpdateInstaller(backend: ScriptedBackend(), configuration: configuration)
        var updates = [update("a"), update("b")]
        let job = try installer.beginInstall(updates, state: "mine")
        updates.removeAll()
        let result = try await installer.endInstall(job)
        #expect(job.updates.map(\.id) == ["a", "b"])
        #expect(result.updateResults.count == 2)
        #expect(job.asyncState as? String == "mine")
    }
}
