import Foundation
import Glibc
import Testing
import TestProcessSupport

/// A fatal signal kills every running update's process group, then installtop dies of that
/// signal: with Swift's backtracer on (which, for a signal sent with kill, would print a report
/// and let the process go on) and off.
@Suite("fatal signals")
struct FatalSignalTests {
    static let cases: [(Int32, String)] = [(SIGSEGV, "enable=yes,interactive=no"), (SIGABRT, "enable=yes,interactive=no"),
                                           (SIGSEGV, "enable=no"), (SIGBUS, "enable=no")]

    @Test("installtop dies of the signal, and the update's processes die with it", arguments: cases)
    func fatalSignal(signal: Int32, backtrace: String) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try writeWaitingUpdate(in: folder)
        let run = try InstalltopProcess(["run", "--plain", "--no-history", "slow.yaml"], in: folder,
                                        environment: ["SWIFT_BACKTRACE": backtrace])
        let scriptPID = try await pidWritten(to: folder.file("script.pid"))
        let sleepPID = try await pidWritten(to: folder.file("sleep.pid"))
        run.send(signal)
        let result = try await run.finish(timeout: .seconds(60))

        #expect(result.status == 128 + signal, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(await eventually { processIsGone(scriptPID) && processIsGone(sleepPID) }, "the update's processes outlived installtop")
    }
}
