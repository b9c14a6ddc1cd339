import APTTestSupport
import Foundation
@testable import InstallDrivers
import Testing

/// The command the pending snapshot names for what dpkg left half-way (issue 56, item 1), for
/// each state dpkg can leave a package in, in a private root: the command is the one that
/// works, and running it leaves the package installed (`ii`). dpkg runs here only with the
/// root's `--root`, `--admindir` and `--log`, its scripts chrootless as the root's apt runs them.
@Suite("pending: the command that finishes each state dpkg leaves")
struct PendingFinishCommandTests {
    /// `dpkg` in the root, as its apt runs it.
    private func dpkg(_ apt: APTTestRoot, _ arguments: [String]) throws -> TestCommand {
        try TestCommand.run(["/usr/bin/dpkg", "--root=\(apt.root)", "--admindir=\(apt.root)/var/lib/dpkg",
                             "--log=\(apt.root)/var/log/dpkg.log", "--force-script-chrootless"] + arguments, environment: apt.environment)
    }

    /// Runs what `command` names in the root: `dpkg --configure -a` (and then apt-get's
    /// reinstall when it says so), with the root's options.
    private func run(_ command: String, in apt: APTTestRoot) throws -> String {
        var said = ""
        let configure = try dpkg(apt, ["--configure", "-a"])
        said += configure.stdout + configure.stderr
        if let range = command.range(of: "apt-get install --reinstall ") {
            let packages = command[range.upperBound...].split(separator: " ").map(String.init)
            let reinstall = try apt.aptGet(["-y", "install", "--reinstall"] + packages)
            said += reinstall.stdout + reinstall.stderr
        }
        return said
    }

    @Test("unpacked (iU): dpkg --configure -a is named, and finishes it")
    func unpacked() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-app")])
        try #require(try dpkg(apt, ["--unpack", "\(apt.repository)/lab-app_1.0_all.deb"]).status == 0)
        #expect(try apt.states()["lab-app"]?.status == "iU")
        let snapshot = PendingSnapshotReader.read(aptConfig: apt.configuration)
        #expect(snapshot.notFullyInstalled == ["lab-app: unpacked but not configured at 1.0 (iU)"])
        #expect(snapshot.finishCommand == "dpkg --configure -a")
        let said = try run(try #require(snapshot.finishCommand), in: apt)
        #expect(try apt.states()["lab-app"]?.status == "ii", "\(said)")
        #expect(PendingSnapshotReader.read(aptConfig: apt.configuration).finishCommand == nil)
    }

    @Test("half-configured (iF), its postinst failed once: dpkg --configure -a is named, and finishes it")
    func halfConfigured() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // Fails the first time, as a postinst whose cause was then fixed.
        let postinst = #"if [ ! -e "$DPKG_ROOT/lab-once" ]; then touch "$DPKG_ROOT/lab-once"; exit 1; fi"#
        try apt.publish([TestPackage(name: "lab-once", postinst: postinst)])
        _ = try apt.aptGet(["-y", "install", "lab-once"])
        #expect(try apt.states()["lab-once"]?.status == "iF")
        let snapshot = PendingSnapshotReader.read(aptConfig: apt.configuration)
        #expect(snapshot.finishCommand == "dpkg --configure -a")
        let said = try run(try #require(snapshot.finishCommand), in: apt)
        #expect(try apt.states()["lab-once"]?.status == "ii", "\(said)")
    }

    @Test("triggers awaited (iW) and pending (it): dpkg --configure -a is named, and finishes both")
    func triggers() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-watcher", triggers: "interest lab-trigger"),
                         TestPackage(name: "lab-activator", triggers: "activate-await lab-trigger")])
        try apt.aptGet(["-y", "install", "lab-watcher"], check: true)
        // dpkg leaves the trigger unprocessed when told not to process triggers: the activator
        // awaits it, the watcher has it pending.
        let install = try dpkg(apt, ["--no-triggers", "--install", "\(apt.repository)/lab-activator_1.0_all.deb"])
        try #require(install.status == 0, "\(install.stdout)\(install.stderr)")
        let states = try apt.states()
        #expect(states["lab-activator"]?.status == "iW", "\(states)")
        #expect(states["lab-watcher"]?.status == "it", "dpkg abbreviates triggers-pending as t: \(states)")
        let snapshot = PendingSnapshotReader.read(aptConfig: apt.configuration)
        #expect(snapshot.notFullyInstalled.count == 2, "\(snapshot.notFullyInstalled)")
        #expect(snapshot.finishCommand == "dpkg --configure -a")
        let said = try run(try #require(snapshot.finishCommand), in: apt)
        let after = try apt.states()
        #expect(after["lab-activator"]?.status == "ii", "\(said)")
        #expect(after["lab-watcher"]?.status == "ii", "\(said)")
    }

    @Test("half-installed, reinstall required (iHR): dpkg --configure -a leaves it so; the reinstall named finishes it")
    func halfInstalled() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-app", files: ["/usr/share/lab-app/data": "1"])])
        try apt.aptGet(["-y", "install", "lab-app"], check: true)
        // What a dpkg killed mid-unpack leaves, written as dpkg writes its status.
        let status = "\(apt.root)/var/lib/dpkg/status"
        let text = try String(contentsOfFile: status, encoding: .utf8)
        try text.replacingOccurrences(of: "Status: install ok installed", with: "Status: install reinstreq half-installed")
            .write(toFile: status, atomically: true, encoding: .utf8)
        #expect(try apt.states()["lab-app"]?.status == "iHR")

        let snapshot = PendingSnapshotReader.read(aptConfig: apt.configuration)
        let command = try #require(snapshot.finishCommand)
        #expect(command == "dpkg --configure -a, then APT_CONFIG=\(apt.configuration) apt-get install --reinstall lab-app", "\(command)")
        // What pending said before: exits 0 and leaves the package as it was.
        let configure = try dpkg(apt, ["--configure", "-a"])
        #expect(configure.status == 0)
        #expect(try apt.states()["lab-app"]?.status == "iHR")
        // With a run known, its repair is named instead.
        let named = PendingSnapshotReader.read(aptConfig: apt.configuration, repairRun: { packages in packages == ["lab-app"] ? 7 : nil })
        #expect(named.finishCommand == "installtop apt repair 7")

        let said = try run(command, in: apt)
        #expect(try apt.states()["lab-app"]?.status == "ii", "\(said)")
        #expect(try apt.audit().isEmpty)
    }

    @Test("The command is chosen for the whole root: one package that needs its archive makes it a reinstall")
    func mixed() {
        let states = ["a": APTPackageState(status: "iU", version: "1"), "b": APTPackageState(status: "iHR", version: "2"),
                      "c": APTPackageState(status: "ii", version: "1")]
        #expect(DpkgFinishCommand.text(for: states) == "dpkg --configure -a, then apt-get install --reinstall b")
        #expect(DpkgFinishCommand.text(for: states, run: 3) == "installtop apt repair 3")
        #expect(DpkgFinishCommand.text(for: ["a": APTPackageState(status: "iUR", version: "1")]) == "dpkg --configure -a, then apt-get install --reinstall a")
        #expect(DpkgFinishCommand.text(for: ["w": APTPackageState(status: "iW", version: "1"), "t": APTPackageState(status: "it", version: "1"),
                                             "f": APTPackageState(status: "iF", version: "1")], run: 3) == "dpkg --configure -a")
        #expect(DpkgFinishCommand.text(for: ["c": APTPackageState(status: "ii", version: "1")]) == nil)
    }
}
