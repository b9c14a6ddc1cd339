import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// The kill matrix's engine column (issue 47, item 2): installtop itself SIGKILLed while lab-k2
/// waits in a maintainer script (`APTKillPoint.engineDeaths`), alone or with apt-get and dpkg.
/// Alone, apt-get and dpkg go on without it and finish the transaction; with them, dpkg is left
/// half-way and nobody repairs it. Each case holds when the next reader of the history settles
/// the run from dpkg's final state (every package's row agrees with dpkg, the run ended), dpkg
/// is consistent or what is left half-way is told with the command that finishes it
/// (`installtop pending`), and nothing of the transaction is left running.
@Suite("installtop apt: installtop killed mid-transaction; the next reader settles its run from dpkg", .serialized)
struct APTEngineKillTests {
    @Test("installtop killed in a maintainer script: the run settled from dpkg", arguments: APTKillPoint.engineDeaths)
    func engineKilled(_ point: APTKillPoint) async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        defer { APTKillPoint.release(apt) }
        let (process, aptGet, dpkg, stall) = try await point.start(apt, database: database, folder: folder)
        kill(process.pid, SIGKILL)
        if point.target == .all {
            kill(dpkg, SIGKILL)
            kill(aptGet, SIGKILL)
        }
        let result = try await process.finish(timeout: .seconds(120))
        #expect(result.status == 128 + SIGKILL, "installtop ended with \(result.status)")
        APTKillPoint.release(apt)
        await stall?.end(apt)
        // What outlived installtop ends on its own: apt-get and dpkg finish the transaction.
        #expect(await eventually(timeout: .seconds(120)) { process.leftovers.isEmpty }, "left running: \(process.leftovers)")

        let states = try apt.states()
        let audit = try apt.audit()
        let halfWay = states.filter { $0.value.isHalfWay }.keys.sorted()
        if point.target == .engine {
            // Nothing was lost with installtop: apt-get and dpkg finished what they began.
            #expect(audit.isEmpty, "\(audit)")
            for package in APTKillPoint.packages {
                #expect(states[package].map { "\($0.status) \($0.version)" } == "ii \(point.targetVersion)", "\(package): \(states)")
            }
        } else {
            // dpkg was cut off: what it left half-way is told, with the command that finishes it.
            let pending = try await installtop(["pending", "--apt-config", apt.configuration], in: folder)
            if halfWay.isEmpty {
                #expect(audit.isEmpty, "\(audit)")
            } else {
                #expect(pending.stdout.contains("\(halfWay.count) not fully installed"), "\(pending.stdout)\(pending.stderr)")
                // The command that works for what is left: dpkg --configure -a leaves a
                // half-installed package as it is (issue 56).
                let needsArchive = halfWay.filter { states[$0]?.finishesWithConfigure == false }
                let named = needsArchive.isEmpty ? "(dpkg --configure -a finishes them"
                    : "(dpkg --configure -a, then APT_CONFIG=\(apt.configuration) apt-get install --reinstall \(needsArchive.joined(separator: " ")) finishes them"
                #expect(pending.stdout.contains(named), "\(named): \(pending.stdout)")
                for package in halfWay { #expect(pending.stdout.contains("  \(package): "), "\(package): \(pending.stdout)") }
            }
        }

        // A file of the package in flight damaged after the fact (as dpkg cut off mid-write would
        // leave it): the settlement says which, and the package is not taken as done.
        let damaged = point.target == .engine && point.phase == .postinst
        if damaged { try "half-written".write(toFile: apt.root + APTKillPoint.killedFile, atomically: false, encoding: .utf8) }

        // The killed run is the newest: its number is the one a repair names.
        func killedRun() async throws -> Int {
            try #require(try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder)
                .jsonObjects().compactMap { ($0["run"] as? NSNumber)?.intValue }.max())
        }
        func repair(_ run: Int) async throws -> RunResult {
            try await installtop(["apt", "repair", String(run), "--yes", "--plain", "--apt-config", apt.configuration, "--history-db", database],
                                 in: folder, timeout: .seconds(180))
        }

        // The next reader of the history settles the run: every row as dpkg shows it.
        if damaged {
            let run = try await killedRun()
            let rows = try await installtop(["history", "--json", "--history-db", database], in: folder).jsonObjects()
            let row = rows.first { $0["updateId"] as? String == APTKillPoint.killed }
            let reason = row?["reason"] as? String ?? ""
            #expect(row?["result"] as? String == "failed", "\(row ?? [:])")
            #expect(reason.contains("dpkg --verify of lab-k2: 1 file differs from what dpkg recorded (\(APTKillPoint.killedFile)): "
                + "installtop apt repair \(run) reinstalls it"), "\(reason)")
            try await point.expectRecordAgreesWithDpkg(apt, database: database, in: folder, except: [APTKillPoint.killed])
            // The repair the reason names puts the file back, at the version dpkg has.
            let repaired = try await repair(run)
            #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
            #expect(repaired.stderr.contains("lab-k2 \(point.targetVersion): 1 file differs from what dpkg recorded (\(APTKillPoint.killedFile))"),
                    "\(repaired.stderr)")
            #expect(try apt.unverifiedFiles(of: APTKillPoint.killed).isEmpty)
            #expect(try apt.states()[APTKillPoint.killed].map { "\($0.status) \($0.version)" } == "ii \(point.targetVersion)")
        } else {
            try await point.expectRecordAgreesWithDpkg(apt, database: database, in: folder)
        }
        if point.target == .all {
            // The rows say only what is known: apt and dpkg were killed too, so none says they
            // went on; each package dpkg left half-way names the command that finishes it.
            let settled = try await killedRun()
            // Newest first: each package's first row is the killed run's.
            let entries = try await installtop(["history", "--json", "--history-db", database], in: folder).jsonObjects()
            let rows = APTKillPoint.packages.compactMap { package in entries.first { $0["updateId"] as? String == package } }
            for row in rows {
                let reason = row["reason"] as? String ?? ""
                #expect(!reason.contains("went on"), "\(reason)")
            }
            let needsArchive = halfWay.contains { states[$0]?.finishesWithConfigure == false }
            for package in halfWay {
                let reason = rows.first { $0["updateId"] as? String == package }?["reason"] as? String ?? ""
                #expect(reason.hasSuffix(needsArchive ? "; installtop apt repair \(settled) finishes it" : "; dpkg --configure -a finishes it"),
                        "\(package): \(reason)")
            }
            // history --jobs follows dpkg: a run naming a package left half-way is not undoable,
            // and says what finishes it (never "changed no package"); only the killed run's own
            // packages, configurable with dpkg's journal closed, are ones its undo puts back.
            let journalOpen = ((try? FileManager.default.contentsOfDirectory(atPath: apt.root + "/var/lib/dpkg/updates")) ?? [])
                .contains { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
            let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
            for listed in runs where (listed["packages"] as? [[String: Any]] ?? []).contains(where: { package in
                guard let name = package["name"] as? String, halfWay.contains(name) else { return false }
                return journalOpen || states[name]?.finishesWithConfigure == false || (listed["run"] as? NSNumber)?.intValue != settled
            }) {
                let why = listed["notUndoableBecause"] as? String ?? ""
                #expect(listed["undoable"] as? Bool == false && why.contains(": installtop apt repair \(settled) finishes it first"), "\(listed)")
            }
            if point.operation == .undo, !halfWay.isEmpty {
                // The upgrade whose undo was cut: undoing it again is refused with the repair.
                let again = try await installtop(["apt", "undo", "1", "--yes", "--plain", "--apt-config", apt.configuration, "--history-db", database],
                                                 in: folder)
                #expect(again.status == 2, "\(again.stdout)\(again.stderr)")
                #expect(again.stderr.contains("installtop apt repair \(settled) finishes"), "\(again.stderr)")
            }
            // What dpkg was left with, the repair of the run puts right.
            let run = try await killedRun()
            let repaired = try await repair(run)
            let said = "\(repaired.stdout)\(repaired.stderr)"
            #expect(repaired.status == 0, "\(said)")
            if !halfWay.isEmpty {
                #expect(repaired.stderr.contains("dpkg left \(halfWay.count == 1 ? "1 package" : "\(halfWay.count) packages") half-way"),
                        "\(said)")
                #expect(repaired.stdout.contains("apt repair \(run) · finish what dpkg left half-way: succeeded"), "\(said)")
            }
            #expect(try apt.audit().isEmpty, "\(said)")
            #expect(try apt.states().filter(\.value.isHalfWay).isEmpty, "\(said)")
            for package in APTKillPoint.packages where try apt.states()[package] != nil {
                #expect(try apt.unverifiedFiles(of: package).isEmpty, "\(package)")
            }
            point.expectOperatorEditKept(apt, context: said)
        }
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
