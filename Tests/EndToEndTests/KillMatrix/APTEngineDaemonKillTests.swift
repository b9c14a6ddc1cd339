import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `installtop apt upgrade` run in the machine's engine (a serve on a private root), the engine,
/// apt-get and dpkg SIGKILLed together while lab-k2's preinst waits (issue 56, item 1): the
/// command that followed the job says what dpkg was left with and names the command that
/// finishes it, and that command works. Signals go only to the serve this test started and to
/// the apt-get and dpkg found under it.
@Suite("installtop apt in the machine's engine: the engine, apt-get and dpkg killed together", .serialized)
struct APTEngineDaemonKillTests {
    @Test("Killed in lab-k2's preinst of an upgrade: the following command names what finishes dpkg, and it works")
    func killedTogether() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        defer { APTKillPoint.release(apt) }
        let database = try #require(fixture.historyDatabase)
        try apt.publish(APTKillPoint.lab(version: "1.0"))
        try apt.aptGet(["-y", "install"] + APTKillPoint.packages, check: true)
        try apt.publish(APTKillPoint.lab(version: "2.0"))
        try FileManager.default.createDirectory(atPath: apt.root + "/kill", withIntermediateDirectories: true)
        try "".write(toFile: apt.root + "/kill/arm-\(APTKillPoint.killed)-preinst", atomically: true, encoding: .utf8)
        let serve = try await fixture.start(extraArguments: ["--apt-config", apt.configuration])

        let command = try InstalltopProcess(["apt", "upgrade", "--yes", "--plain", "--apt-config", apt.configuration], in: fixture.folder,
                                            environment: ["INSTALLTOP_MACHINE_SOCKET": fixture.socket])
        let script = try await pidWritten(to: apt.root + "/kill/waiting", timeout: .seconds(120))
        let (aptGet, dpkg) = try APTKillProcesses.transaction(of: script.pid, under: serve.pid)
        kill(serve.pid, SIGKILL)
        kill(dpkg, SIGKILL)
        kill(aptGet, SIGKILL)
        APTKillPoint.release(apt)
        let result = try await command.finish(timeout: .seconds(120))
        let said = "\(result.stdout)\(result.stderr)"
        #expect(result.status == 1, "\(said)")
        #expect(result.stderr.contains("went away before the job ended"), "\(said)")

        let states = try apt.states()
        let halfWay = states.filter(\.value.isHalfWay)
        try #require(!halfWay.isEmpty, "dpkg was not left half-way: the case proves nothing: \(states)")
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: fixture.folder).jsonObjects()
        let run = try #require((runs.first?["run"] as? NSNumber)?.intValue, "\(runs)")
        let needsArchive = halfWay.values.contains { !$0.finishesWithConfigure }
        let named = needsArchive ? "installtop apt repair \(run)" : "dpkg --configure -a"
        #expect(result.stderr.contains("installtop: apt upgrade: dpkg was left with ")
                && result.stderr.contains(": \(named) finishes "), "\(named): \(said)")
        // The history's row agrees, and never says apt and dpkg went on.
        let rows = try await installtop(["history", "--json", "--history-db", database], in: fixture.folder).jsonObjects()
        let reason = rows.first { $0["updateId"] as? String == APTKillPoint.killed }?["reason"] as? String ?? ""
        #expect(reason.hasSuffix("; \(named) finishes it") && !reason.contains("went on"), "\(reason)")

        // The engine started again on the root names the same in `pending`: its history knows the run.
        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let pending = try await fixture.run(["pending", "--json"])
        #expect(pending.stdout.contains(#""finishCommand":"\#(named)""#), "\(pending.stdout)\(pending.stderr)")

        // What it names finishes dpkg (run here, into the engine's history: no machine socket is given).
        if needsArchive {
            let repaired = try await installtop(["apt", "repair", String(run), "--yes", "--plain", "--apt-config", apt.configuration,
                                                 "--history-db", database], in: fixture.folder, timeout: .seconds(180))
            #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        } else {
            let configure = try TestCommand.run(["/usr/bin/dpkg", "--root=\(apt.root)", "--admindir=\(apt.root)/var/lib/dpkg",
                                                 "--log=\(apt.root)/var/log/dpkg.log", "--force-script-chrootless", "--configure", "-a"],
                                                environment: apt.environment)
            #expect(configure.status == 0, "\(configure.stdout)\(configure.stderr)")
        }
        let after = try apt.states()
        #expect(after.filter(\.value.isHalfWay).isEmpty, "\(after)")
        #expect(try apt.audit().isEmpty)
        #expect(await eventually(timeout: .seconds(60)) { command.leftovers.isEmpty }, "left running: \(command.leftovers)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
