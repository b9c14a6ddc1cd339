import APTTestSupport
import Foundation
import Glibc
import Testing

/// One case of the kill matrix (issue 47): which transaction (an install, an upgrade from 1.0
/// to 2.0, or the undo of that upgrade), which maintainer script of lab-k2 it waits in (an upgrade runs the old
/// version's prerm and postrm too), and what the test SIGKILLs there: apt-get, dpkg or both
/// (installtop then repairs), or installtop itself, alone or with both (the next reader of the
/// history settles the run).
///
/// The lab is three packages: lab-k1, lab-k2 (`Depends: lab-k1 (= V)`, an exact-version pair,
/// interested in the trigger `lab-k-trigger`) and lab-k3 (a conffile; it activates the
/// trigger). Every maintainer script of each waits once when its arm file
/// (`ROOT/kill/arm-PACKAGE-PHASE`, `trigger` for a postinst run as `triggered`) exists: it
/// removes the file (the repair runs the script again, and must not wait), writes its pid to
/// `ROOT/kill/waiting` and waits for
/// `ROOT/kill/release` at most ten minutes (a loaded machine starved a test's poll for more
/// than the two minutes it once was, and the script was gone when the test looked), so that a
/// broken case cannot hold a process for
/// ever (the test's teardown kills what is left anyway). A script whose fail file
/// (`ROOT/kill/fail-PACKAGE-PHASE`) exists fails instead, every time, until the file goes.
struct APTKillPoint: Sendable, CustomStringConvertible {
    /// `undo` is `installtop apt undo` of the upgrade from 1.0 to 2.0: back to the kept 1.0.
    enum Operation: String, Sendable, CaseIterable { case install, upgrade, undo }
    /// `trigger` is lab-k2's postinst run for the trigger lab-k3 activates (`triggered`);
    /// `unpack` is dpkg writing lab-k2's files (`APTUnpackStall`), in an install or an upgrade.
    enum Phase: String, Sendable, CaseIterable { case preinst, unpack, postinst, prerm, postrm, trigger }
    enum Target: String, Sendable, CaseIterable {
        case aptGet = "apt-get", dpkg, both
        /// installtop itself; `all`: installtop, apt-get and dpkg.
        case engine = "installtop", all = "installtop, apt-get and dpkg"
    }

    var operation: Operation
    var phase: Phase
    var target: Target
    /// Whether the transaction is the one planned before it starts, as a job started without
    /// `--yes` runs it (the monitor's plan dialog, a manifest, a submitted job): here a manifest's
    /// `apt:` job run by `installtop run`. Otherwise `installtop apt … --yes`, which apt resolves
    /// once, its plan given by apt's hook.
    var planned = false

    var description: String {
        "\(operation.rawValue)\(planned ? " (planned, as without --yes)" : "") · lab-k2's \(phase.rawValue) · kill \(target.rawValue)"
    }

    /// Every combination dpkg reaches with apt-get or dpkg killed, in a fixed order: an
    /// install runs no prerm or postrm.
    static let all = points(killing: [.aptGet, .dpkg, .both])
    /// The same points with installtop killed, alone or with apt-get and dpkg.
    static let engineDeaths = points(killing: [.engine, .all])
    /// The upgrade's points with apt-get or dpkg killed, the transaction planned first (a job
    /// started without `--yes`).
    static let plannedUpgrade = points(killing: [.aptGet, .dpkg, .both]).filter { $0.operation == .upgrade }.map {
        var point = $0
        point.planned = true
        return point
    }

    private static func points(killing targets: [Target]) -> [APTKillPoint] {
        Operation.allCases.flatMap { operation in
            Phase.allCases.filter {
                (operation != .install || ($0 != .prerm && $0 != .postrm)) && (operation != .undo || $0 != .unpack)
            }.flatMap { phase in
                targets.map { APTKillPoint(operation: operation, phase: phase, target: $0) }
            }
        }
    }

    static let packages = ["lab-k1", "lab-k2", "lab-k3"]
    /// lab-k3's conffile, which each version ships with its own contents.
    static let conffile = "/etc/lab-k3.conf"
    /// What the operator made of it once 1.0 was installed (before an upgrade or an undo): an
    /// edit every transaction, kill and repair keeps, as apt's `--force-confold` does.
    static let operatorEdit = "setting = the operator's own\n"

    /// The root's own configuration without `--force-confdef` and `--force-confold` in
    /// `DPkg::Options`, as on a real system: installtop's transaction passes them to apt, and a
    /// repair that runs dpkg by itself must keep the operator's conffile too (the lab's default
    /// configuration, which gives them to every dpkg, hid one that asked, on no terminal).
    static func dropKeptConfigurationOptions(_ apt: APTTestRoot) throws {
        let text = try String(contentsOfFile: apt.configuration, encoding: .utf8)
        let kept = text.replacingOccurrences(of: #""--force-confdef"; "--force-confold"; "#, with: "")
        guard kept != text else { throw EndToEndError.conditionNotMet("the lab's apt configuration to name --force-confdef and --force-confold: \(text)") }
        try kept.write(toFile: apt.configuration, atomically: true, encoding: .utf8)
    }

    /// Checks that the operator's edit of lab-k3's conffile is still there (an install had none).
    func expectOperatorEditKept(_ apt: APTTestRoot, context: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        guard operation != .install else { return }
        let now = (try? String(contentsOfFile: apt.root + Self.conffile, encoding: .utf8)) ?? "(none)"
        #expect(now == Self.operatorEdit, "\(Self.conffile) holds \(now.debugDescription)\n\(context)", sourceLocation: sourceLocation)
    }
    /// A file of lab-k2's (not a conffile), which `dpkg --verify` checks.
    static let killedFile = "/usr/share/lab-k2/data"
    /// The package the kill lands in.
    static let killed = "lab-k2"

    /// The maintainer script dpkg runs at this point (a trigger runs the postinst); the unpack's
    /// is the preinst, which holds dpkg until the .deb is a FIFO.
    var script: String { phase == .trigger ? "postinst" : phase == .unpack ? "preinst" : phase.rawValue }

    /// How installtop's summary names where the kill landed: the running script, or for the
    /// unpack (no script runs), the package dpkg has half-installed.
    var placeWords: String { phase == .unpack ? "while dpkg was unpacking lab-k2" : "lab-k2's \(script)" }

    /// The version the transaction installs.
    var targetVersion: String { operation == .upgrade ? "2.0" : "1.0" }

    /// The lab at `version`, each script able to wait.
    static func lab(version: String) -> [TestPackage] {
        func script(_ package: String, _ phase: String) -> String {
            """
            mkdir -p "$DPKG_ROOT/kill"
            if [ -e "$DPKG_ROOT/kill/fail-\(package)-\(phase)" ]; then echo "\(package): failing as the test asks" >&2; exit 1; fi
            phase=\(phase)
            if [ "$1" = triggered ]; then phase=trigger; fi
            if [ -e "$DPKG_ROOT/kill/arm-\(package)-$phase" ]; then
                rm -f "$DPKG_ROOT/kill/arm-\(package)-$phase"
                echo $$ > "$DPKG_ROOT/kill/waiting.new" && mv "$DPKG_ROOT/kill/waiting.new" "$DPKG_ROOT/kill/waiting"
                i=0
                while [ ! -e "$DPKG_ROOT/kill/release" ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i+1)); done
            fi
            """
        }
        return packages.map { name in
            TestPackage(name: name, version: version, depends: name == "lab-k2" ? "lab-k1 (= \(version))" : nil,
                        preinst: script(name, "preinst"), postinst: script(name, "postinst"),
                        prerm: script(name, "prerm"), postrm: script(name, "postrm"),
                        files: name == "lab-k3" ? ["/etc/lab-k3.conf": "setting = \(version)\n"]
                            : name == "lab-k2" ? [Self.killedFile: "lab-k2 \(version)\n"] : [:],
                        conffiles: name == "lab-k3" ? ["/etc/lab-k3.conf"] : [],
                        triggers: name == "lab-k2" ? "interest-noawait lab-k-trigger\n" : name == "lab-k3" ? "activate-noawait lab-k-trigger\n" : nil)
        }
    }

    /// The lab at 1.0 published in `apt`, lab-k2's postinst made to fail every time (a cause, not
    /// a kill): the file whose removal takes the cause away.
    static func publishWithFailingPostinst(_ apt: APTTestRoot) throws -> String {
        try apt.publish(lab(version: "1.0"))
        try FileManager.default.createDirectory(atPath: apt.root + "/kill", withIntermediateDirectories: true)
        let cause = apt.root + "/kill/fail-\(killed)-postinst"
        try "".write(toFile: cause, atomically: true, encoding: .utf8)
        return cause
    }

    /// Makes the root this case starts from, armed at its kill point: for an undo, the upgrade
    /// to 2.0 run by installtop into `database` (run 1, 1.0 kept).
    func prepare(_ apt: APTTestRoot, database: String, folder: TestFolder) async throws {
        try Self.dropKeptConfigurationOptions(apt)
        try apt.publish(Self.lab(version: "1.0"))
        if operation != .install {
            try apt.aptGet(["-y", "install"] + Self.packages, check: true)
            try Self.operatorEdit.write(toFile: apt.root + Self.conffile, atomically: true, encoding: .utf8)
            try apt.publish(Self.lab(version: "2.0"))
        }
        if operation == .undo {
            let upgrade = try await installtop(["apt", "upgrade", "--yes", "--plain", "--apt-config", apt.configuration, "--history-db", database],
                                               in: folder)
            guard upgrade.status == 0 else { throw EndToEndError.conditionNotMet("the upgrade to undo to succeed: \(upgrade.stdout)\(upgrade.stderr)") }
        }
        try FileManager.default.createDirectory(atPath: apt.root + "/kill", withIntermediateDirectories: true)
        if phase == .unpack { try APTUnpackStall.rebuild(apt, version: targetVersion) }
        // The unpack is held first where its preinst waits.
        try "".write(toFile: apt.root + "/kill/arm-\(Self.killed)-\(phase == .unpack ? "preinst" : phase.rawValue)", atomically: true, encoding: .utf8)
    }

    /// Prepares this case in `apt` (`prepare`), starts its installtop, and waits for the armed
    /// script (for the unpack, then for dpkg held mid-write, `APTUnpackStall`): the running
    /// installtop, the transaction's apt-get and dpkg, and the unpack's stall. The caller
    /// releases the script (`release`) whatever happens, and ends the stall.
    func start(_ apt: APTTestRoot, database: String, folder: TestFolder)
        async throws -> (installtop: InstalltopProcess, aptGet: pid_t, dpkg: pid_t, stall: APTUnpackStall?) {
        try await prepare(apt, database: database, folder: folder)
        let process = try InstalltopProcess(try arguments(apt, database: database, folder: folder), in: folder, environment: ["COLUMNS": "250"])
        let script = try await pidWritten(to: apt.root + "/kill/waiting", timeout: .seconds(120))
        guard phase == .unpack else {
            let (aptGet, dpkg) = try APTKillProcesses.transaction(of: script.pid, under: process.pid)
            return (process, aptGet, dpkg, nil)
        }
        let (stall, dpkgDeb) = try await APTUnpackStall.engage(apt, version: targetVersion, folder: folder)
        let (aptGet, dpkg) = try APTKillProcesses.transaction(of: dpkgDeb, under: process.pid)
        return (process, aptGet, dpkg, stall)
    }

    /// Lets the waiting script end (and every later one not wait), and an unpack's feeder send
    /// the rest of the .deb.
    static func release(_ apt: APTTestRoot) {
        for file in ["release", "feed-rest"] { try? "".write(toFile: apt.root + "/kill/\(file)", atomically: true, encoding: .utf8) }
    }

    /// Checks the history in `database` against dpkg's final state in `apt` once the case ended:
    /// each package's newest row succeeded exactly when dpkg shows it installed at this case's
    /// target version (`except` the packages the caller checks itself), and the newest run
    /// ended. `context` goes with every failure.
    func expectRecordAgreesWithDpkg(_ apt: APTTestRoot, database: String, in folder: TestFolder, except: Set<String> = [],
                                    context: String = "", sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let states = try apt.states()
        let rows = try await installtop(["history", "--json", "--history-db", database], in: folder).jsonObjects()
        for package in Self.packages where !except.contains(package) {
            let done = states[package].map { $0.status == "ii" && $0.version == targetVersion } ?? false
            let row = rows.first { $0["updateId"] as? String == package }
            let result = row?["result"] as? String
            let succeeded = result == "succeeded" || result == "succeededWithErrors"
            #expect(row != nil && succeeded == done, "\(package): dpkg \(states[package]?.description ?? "none"), row \(row ?? [:])\n\(context)",
                    sourceLocation: sourceLocation)
        }
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        #expect(runs.first?["endedAt"] is String, "the run ended: \(runs)", sourceLocation: sourceLocation)
        expectOperatorEditKept(apt, context: context, sourceLocation: sourceLocation)
    }

    /// installtop's arguments for this case's transaction: for a planned one, `run` of a
    /// manifest written into `folder`.
    func arguments(_ apt: APTTestRoot, database: String, folder: TestFolder) throws -> [String] {
        if planned {
            let request = switch operation {
            case .install: "{install: [\(Self.packages.joined(separator: ", "))], apt_config: '\(apt.configuration)'}"
            case .upgrade: "{upgrade: true, apt_config: '\(apt.configuration)'}"
            case .undo: throw EndToEndError.conditionNotMet("an undo is no manifest job")
            }
            let manifest = folder.file("kill-matrix.yaml")
            try "jobs:\n  - name: lab\n    apt: \(request)\n".write(toFile: manifest, atomically: true, encoding: .utf8)
            return ["run", manifest, "--plain", "--history-db", database]
        }
        let request = switch operation {
        case .install: ["install"] + Self.packages
        case .upgrade: ["upgrade"]
        case .undo: ["undo", "1"]
        }
        return ["apt"] + request + ["--yes", "--plain", "--apt-config", apt.configuration, "--history-db", database]
    }
}
