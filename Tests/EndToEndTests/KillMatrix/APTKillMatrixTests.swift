import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// The kill matrix (issue 47, item 2): an `installtop apt install`, `upgrade` or `undo` (of
/// that upgrade) `--yes` of the lab (`APTKillPoint`) waits in a maintainer script of lab-k2 (preinst, postinst, its
/// postinst for a trigger; an upgrade's old prerm and postrm), and the test SIGKILLs apt-get,
/// dpkg or both there, found by pid as descendants of its own installtop (the script's parent
/// is dpkg, whose ancestor below installtop is apt-get). Each case then holds when installtop
/// ended the transaction as a forced stop: exit 3 with dpkg's audit clean (or 5 with the
/// repair command in the summary), the summary saying what ended it, every package's row in
/// the history agreeing with dpkg's final state, the run ended, and nothing left running.
/// Private roots only; serialized, since each case's timing is its own.
@Suite("installtop apt: apt-get or dpkg killed from outside is a forced stop, repaired", .serialized)
struct APTKillMatrixTests {
    @Test("A kill from outside is repaired as a forced stop", arguments: APTKillPoint.all + APTKillPoint.plannedUpgrade)
    func killPoint(_ point: APTKillPoint) async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        // The script stays blocked until the kill's aftermath ends it: released whatever happens.
        defer { APTKillPoint.release(apt) }
        let (process, aptGet, dpkg, stall) = try await point.start(apt, database: database, folder: folder)
        switch point.target {
        case .aptGet: kill(aptGet, SIGKILL)
        case .dpkg: kill(dpkg, SIGKILL)
        case .both:
            kill(dpkg, SIGKILL)
            kill(aptGet, SIGKILL)
        case .engine, .all:
            Issue.record("\(point): an engine's death is APTEngineKillTests' case")
        }
        let result = try await process.finish(timeout: .seconds(120))
        APTKillPoint.release(apt)
        await stall?.end(apt)
        let said = "stdout: \(result.stdout)\nstderr: \(result.stderr)"

        // dpkg consistent, or the summary names the command that repairs it.
        #expect(result.status == 3 || result.status == 5, "\(said)")
        if result.status == 5 {
            #expect(result.summaryText.contains("run `APT_CONFIG=\(apt.configuration) apt-get -f"), "\(said)")
        } else {
            #expect(try apt.audit().isEmpty, "\(said)")
            #expect(result.summaryText.contains("repaired: dpkg --audit is clean"), "\(said)")
        }
        // What ended the transaction: apt-get's own death where installtop saw it, else dpkg's as
        // apt-get reported it (apt 2.6 says "exited unexpectedly", not which signal).
        let ender = point.target == .dpkg ? "dpkg was killed by a signal" : "apt-get was killed by signal 9 (Killed)"
        #expect(result.summaryText.contains(ender), "\(said)")
        #expect(result.summaryText.contains(point.placeWords), "\(said)")

        // Every package's row agrees with dpkg's final state, and the run ended.
        try await point.expectRecordAgreesWithDpkg(apt, database: database, in: folder, context: said)
        // Nothing of the transaction is left running.
        #expect(await eventually(timeout: .seconds(20)) { process.leftovers.isEmpty }, "left running: \(process.leftovers)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A postinst that fails is no kill: nothing is repaired, and the summary names dpkg's state and the commands that finish the transaction, which do once the cause is gone")
    func failingScriptIsNamedNotRepaired() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let cause = try APTKillPoint.publishWithFailingPostinst(apt)
        let point = APTKillPoint(operation: .install, phase: .postinst, target: .dpkg)
        let result = try await installtop(try point.arguments(apt, database: folder.file("history.sqlite3"), folder: folder), in: folder,
                                          environment: ["COLUMNS": "250"])
        let said = "stdout: \(result.stdout)\nstderr: \(result.stderr)"
        #expect(result.status == 1, "\(said)")
        #expect(!result.stdout.contains("repairing:"), "nothing is retried or repaired: \(said)")
        let job = result.summaryText.split(separator: "\n").first { $0.hasPrefix("job 1 ") && $0.contains("dpkg is left unfinished") }
        let line = String(try #require(job, "\(said)"))
        #expect(line.contains("dpkg is left unfinished (lab-k2 half-configured at 1.0 (iF)): once the cause is fixed, run `"), "\(line)")
        #expect(!(try apt.audit()).isEmpty, "the root was not left unfinished: the test proves nothing")

        // The commands the line names finish the transaction once the cause is gone.
        let commands = line.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(commands.count == 2 && commands[0].contains(" --configure -a") && commands[1].hasSuffix("apt-get -f install"), "\(commands)")
        try FileManager.default.removeItem(atPath: cause)
        for command in commands {
            try TestCommand.check(["/bin/sh", "-c", command + " < /dev/null"], environment: ["DEBIAN_FRONTEND": "noninteractive"])
        }
        #expect(try apt.audit().isEmpty)
        #expect(try apt.states()["lab-k2"]?.status == "ii")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
