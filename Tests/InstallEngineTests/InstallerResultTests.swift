import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

@Suite("Rules 16–18 and the HResult table: results")
struct InstallerResultTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    @Test("Rule 16: job results from update results")
    func jobResults() async throws {
        let backend = ScriptedBackend(scripts: ["bad": .fail(status: 3), "bad2": .fail()])
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        #expect(try await installer.install([update("a"), update("b")]).resultCode == .succeeded)
        let mixed = try await installer.install([update("a"), update("bad")])
        #expect(mixed.resultCode == .succeededWithErrors)
        #expect(mixed.updateResults[1].hResult == .installerFailure)
        #expect(mixed.updateResults[1].hResult.description == "0x8024200B")
        #expect(mixed.updateResults[1].unmappedResultCode == 3)
        #expect(mixed.updateResults[1].reason == "exited with status 3")
        let allFailed = try await installer.install([update("bad"), update("bad2")])
        #expect(allFailed.resultCode == .failed)
        #expect(allFailed.hResult == .allUpdatesFailed)
    }

    @Test("An error line with exit 0 is succeededWithErrors, and so is the job")
    func errorLines() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: [.error("disk almost full")]))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let result = try await installer.install([update("a")])
        #expect(result.updateResults[0].resultCode == .succeededWithErrors)
        #expect(result.updateResults[0].reportedErrors == ["disk almost full"])
        #expect(result.resultCode == .succeededWithErrors)
    }

    @Test("A signal is failure with 128 + signal; a command that cannot start fails and the job goes on")
    func signalsAndStartFailures() async throws {
        let backend = ScriptedBackend(scripts: [
            "segv": UpdateScript(outcome: .signaled(11)),
            "missing": UpdateScript(outcome: .failedToStart("cannot run ./nope.sh: No such file or directory")),
        ])
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let result = try await installer.install([update("segv"), update("missing"), update("fine")])
        #expect(result.updateResults[0].unmappedResultCode == 139)
        #expect(result.updateResults[0].reason?.hasPrefix("killed by signal 11") == true)
        #expect(result.updateResults[1].resultCode == .failed)
        #expect(result.updateResults[1].reason == "cannot run ./nope.sh: No such file or directory")
        #expect(result.updateResults[2].resultCode == .succeeded)
        #expect(backend.startedUpdateIDs == ["segv", "missing", "fine"])
    }

    @Test("A timeout terminates the update, kills it when its grace is over, and fails it with installerHung")
    func timeout() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(ending: .whenReleased, onTerminate: .ignore))
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let result = try await installer.install([update("a", timeout: .milliseconds(40), abortGrace: .milliseconds(60))])
        #expect(result.updateResults[0].resultCode == .failed)
        #expect(result.updateResults[0].hResult == .installerHung)
        #expect(result.updateResults[0].hResult.description == "0x80242007")
        #expect(result.updateResults[0].reason == "timed out after 40ms")
    }

    @Test("Rule 17: reboot required by behaviour always, by the channel, or by the marker file; only on success")
    func rebootRequired() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-marker-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let backend = ScriptedBackend(scripts: [
            "says": UpdateScript(reports: [.rebootRequired]),
            "saysButFails": UpdateScript(reports: [.rebootRequired], outcome: .exited(1)),
            "touches": .hold,
        ])
        let installer = UpdateInstaller(backend: backend, configuration: EngineConfiguration(rebootMarkerPath: marker))
        let plain = try await installer.install([update("plain", reboot: .may)])
        #expect(!plain.rebootRequired)
        #expect(try await installer.install([update("always", reboot: .always)]).updateResults[0].rebootRequired)
        #expect(try await installer.install([update("says")]).rebootRequired)
        #expect(!(try await installer.install([update("saysButFails")]).rebootRequired))
        let job = try installer.beginInstall([update("touches", reboot: .may), update("after")])
        await backend.waitUntilStarted("touches")
        try Data("*** System restart required ***\n".utf8).write(to: URL(fileURLWithPath: marker))
        backend.release("touches")
        let touched = try await installer.endInstall(job)
        #expect(touched.updateResults[0].rebootRequired)
        #expect(!touched.updateResults[1].rebootRequired, "the marker did not change while the second ran")
        #expect(touched.rebootRequired)
    }

    @Test("Rule 18: a failure does not stop the job, unless stopOnFailure; then the rest are callCancelled, not aborted")
    func stopOnFailure() async throws {
        let backend = ScriptedBackend(scripts: ["bad": .fail()])
        let installer = UpdateInstaller(backend: backend, configuration: configuration)
        let goesOn = try await installer.install([update("bad"), update("b")])
        #expect(goesOn.updateResults[1].resultCode == .succeeded)
        let stops = try await installer.install([update("a"), update("bad"), update("c")], stopOnFailure: true)
        #expect(stops.updateResults[2].resultCode == .aborted)
        #expect(stops.updateResults[2].hResult == .callCancelled)
        #expect(stops.resultCode == .succeededWithErrors)
        let onlyFailure = try await installer.install([update("bad"), update("c")], stopOnFailure: true)
        #expect(onlyFailure.resultCode == .succeededWithErrors, "failed + aborted is a mix, not all failed")
    }

    @Test("Uninstall jobs run the uninstall commands")
    func uninstallRunsUninstallCommands() async throws {
        let commands = RecordingBackend()
        let installer = UpdateInstaller(backend: commands, configuration: configuration)
        _ = try await installer.uninstall([update("a")])
        #expect(commands.requests.map(\.command) == [.argv(["uninstall", "a"])])
        #expect(commands.requests.map(\.operation) == [.uninstall])
    }
}

import Synchronization

/// A backend that records its requests and succeeds at once.
final class RecordingBackend: InstallBackend {
    private let recorded = Mutex<[UpdateRunRequest]>([])
    private let inner = ScriptedBackend()
    var requests: [UpdateRunRequest] { recorded.withLock { $0 } }

    func start(_ request: UpdateRunRequest, reporter: any UpdateReporter) -> any RunningUpdate {
        recorded.withLock { $0.append(request) }
        return inner.start(request, reporter: reporter)
    }
}
