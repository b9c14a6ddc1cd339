import Foundation
import Glibc
import InstallEngine
import Testing

@testable import InstallDrivers

/// Where an apt job acts (read from `apt-config dump`), dpkg's final states checked against the
/// plan, and how a plan reads before it runs.
@Suite("apt: environment, package states and the plan's summary")
struct APTEnvironmentTests {
    /// `apt-config dump` with an `APT_CONFIG` that moves everything into a private root, as
    /// apt 2.x prints it (lines not about the root left out, some kept as noise).
    private static let privateRootDump = """
        APT "";
        APT::Architecture "amd64";
        Dir "/tmp/r/";
        Dir::State "var/lib/apt";
        Dir::State::lists "lists/";
        Dir::State::status "/tmp/r/var/lib/dpkg/status";
        Dir::Bin::dpkg "/usr/bin/dpkg";
        DPkg "";
        DPkg::Path "/usr/sbin:/usr/bin:/sbin:/bin";
        DPkg::Options "";
        DPkg::Options:: "--root=/tmp/r";
        DPkg::Options:: "--log=/tmp/r/var/log/dpkg.log";
        DPkg::Options:: "--force-script-chrootless";
        DPkg::Pre-Install-Pkgs:: "/usr/sbin/dpkg-preconfigure --apt || true";
        """

    /// The system's defaults, as a stock Debian prints them.
    private static let systemDump = """
        Dir "/";
        Dir::State "var/lib/apt";
        Dir::State::lists "lists/";
        Dir::State::status "/var/lib/dpkg/status";
        Dir::Bin::dpkg "/usr/bin/dpkg";
        DPkg::Pre-Install-Pkgs:: "/usr/sbin/dpkg-preconfigure --apt || true";
        """

    // MARK: - APTEnvironment

    @Test("A private root's dump: dpkg's database, root, options and reboot list are the root's")
    func privateRoot() {
        let environment = APTEnvironment.parse(dump: Self.privateRootDump, aptConfig: "/tmp/r/etc/apt/apt.conf")
        #expect(environment.aptConfig == "/tmp/r/etc/apt/apt.conf")
        #expect(environment.administrativeDirectory == "/tmp/r/var/lib/dpkg")
        #expect(environment.root == "/tmp/r")
        #expect(environment.dpkgOptions == ["--root=/tmp/r", "--log=/tmp/r/var/log/dpkg.log", "--force-script-chrootless"])
        #expect(environment.dpkg == "/usr/bin/dpkg")
        #expect(environment.rebootPackagesPath == "/tmp/r/run/reboot-required.pkgs")
        #expect(environment.commandEnvironment["APT_CONFIG"] == "/tmp/r/etc/apt/apt.conf")
    }

    @Test("The system's defaults: /var/lib/dpkg, root /, no options, the host's reboot list")
    func systemDefaults() {
        let environment = APTEnvironment.parse(dump: Self.systemDump, aptConfig: nil)
        #expect(environment.aptConfig == nil)
        #expect(environment.administrativeDirectory == "/var/lib/dpkg")
        #expect(environment.root == "/")
        #expect(environment.dpkgOptions.isEmpty)
        #expect(environment.rebootPackagesPath == "/run/reboot-required.pkgs")
        #expect(environment.commandEnvironment["APT_CONFIG"] == nil)
    }

    @Test("An empty dump falls back to the system's paths")
    func emptyDump() {
        let environment = APTEnvironment.parse(dump: "", aptConfig: nil)
        #expect(environment.administrativeDirectory == "/var/lib/dpkg")
        #expect(environment.root == "/")
        #expect(environment.dpkg == "/usr/bin/dpkg")
    }

    @Test("A relative Dir::State::status is under Dir::State, itself under Dir")
    func relativeStatus() {
        let dump = """
            Dir "/srv/root";
            Dir::State "var/lib/apt/";
            Dir::State::status "status";
            Dpkg::Options:: "--instdir=/srv/root/";
            Dir::Bin::dpkg "/opt/dpkg";
            """
        let environment = APTEnvironment.parse(dump: dump, aptConfig: nil)
        #expect(environment.administrativeDirectory == "/srv/root/var/lib/apt")
        #expect(environment.root == "/srv/root/", "--instdir also names the root; `Dpkg::` spelling too")
        #expect(environment.rebootPackagesPath == "/srv/root/run/reboot-required.pkgs", "no doubled slash")
        #expect(environment.dpkg == "/opt/dpkg")
        #expect(environment.extendedStates == "/srv/root/var/lib/apt/extended_states", "apt's marks, beside its state")
        #expect(environment.lists == "/srv/root/var/lib/apt/lists/", "apt's lists, beside its state")
        let chroot = APTEnvironment.parse(dump: #"Dir::State::lists "/var/lib/apt/lists/";"#, aptConfig: nil, chroot: "/srv/image")
        #expect(chroot.lists == "/srv/image/var/lib/apt/lists/", "a chroot's lists read under its folder")
    }

    @Test("The configuration a version 3 hook is handed: the run's own root, database, options and cache")
    func hookInput() throws {
        let lines = [
            "VERSION 3",
            "Dir=/tmp/r/",
            "Dir::State=var/lib/apt/",
            "Dir::State::status=/tmp/r/var/lib/dpkg/status",
            "Dir::Cache=var/cache/apt/",
            "Dir::Cache::archives=archives/",
            "DPkg::Options::=--root=/tmp/r",
            "DPkg::Options::=--log=/tmp/r/var/log/dpkg%20here.log",
            "",
            "lab-app 1.0 all none < 2.0 all none /tmp/r/var/cache/apt/archives/lab-app_2.0_all.deb",
        ]
        let environment = try #require(APTEnvironment.fromHookInput(lines, aptConfig: "/tmp/r/apt.conf"))
        #expect(environment.administrativeDirectory == "/tmp/r/var/lib/dpkg")
        #expect(environment.root == "/tmp/r")
        #expect(environment.dpkgOptions == ["--root=/tmp/r", "--log=/tmp/r/var/log/dpkg here.log"])
        #expect(environment.archiveCache == "/tmp/r/var/cache/apt/archives/")
        #expect(environment.extendedStates == "/tmp/r/var/lib/apt/extended_states")
        #expect(environment.aptConfig == "/tmp/r/apt.conf")
        #expect(APTEnvironment.fromHookInput(["VERSION 3", "", "lab-app 1.0 all none < 2.0 all none x.deb"], aptConfig: nil) == nil)
    }

    @Test("apt's marks read from extended_states: only Auto-Installed: 1 counts")
    func extendedStates() {
        let text = """
            Package: lab-base
            Architecture: all
            Auto-Installed: 1

            Package: lab-app
            Architecture: amd64
            Auto-Installed: 0

            Package: lab-lib
            Architecture: amd64
            Auto-Installed: 1

            """
        #expect(APTAutoMarks.automatic(inExtendedStates: text) == ["lab-base", "lab-lib"])
        #expect(APTEnvironment.parse(dump: "", aptConfig: nil).extendedStates == "/var/lib/apt/extended_states")
    }

    @Test("path(inRoot:) joins without doubling the slash")
    func pathInRoot() {
        let host = APTEnvironment(aptConfig: nil, administrativeDirectory: "/var/lib/dpkg", root: "/", dpkgOptions: [])
        let root = APTEnvironment(aptConfig: nil, administrativeDirectory: "/x/var/lib/dpkg", root: "/x/", dpkgOptions: [])
        #expect(host.path(inRoot: "/etc/a") == "/etc/a")
        #expect(root.path(inRoot: "/etc/a") == "/x/etc/a")
    }

    @Test("pathInsideChroot: this system's path under the chroot as apt inside it names it; unchanged without one or outside it")
    func pathInsideChroot() {
        let system = APTEnvironment.parse(dump: Self.systemDump, aptConfig: nil, chroot: "/srv/image/")
        #expect(system.pathInsideChroot("/srv/image/var/cache/apt/archives/a_1_all.deb") == "/var/cache/apt/archives/a_1_all.deb")
        #expect(system.pathInsideChroot("/srv/images/a.deb") == "/srv/images/a.deb")
        let host = APTEnvironment.parse(dump: Self.systemDump, aptConfig: nil)
        #expect(host.pathInsideChroot("/srv/image/a.deb") == "/srv/image/a.deb")
    }

    @Test("In a chroot: apt's paths are read under the chroot's folder, every command runs through chroot")
    func chroot() {
        let system = APTEnvironment.parse(dump: Self.systemDump, aptConfig: nil, chroot: "/srv/image")
        #expect(system.administrativeDirectory == "/srv/image/var/lib/dpkg")
        #expect(system.root == "/srv/image")
        #expect(system.rebootPackagesPath == "/srv/image/run/reboot-required.pkgs")
        #expect(system.command(["/usr/bin/apt-get", "-s", "install", "a"]) == ["/usr/sbin/chroot", "/srv/image", "/usr/bin/apt-get", "-s", "install", "a"])
        #expect(system.dpkgCommand(["--configure", "-a"]) == ["/usr/sbin/chroot", "/srv/image", "/usr/bin/dpkg", "--configure", "-a"])

        // A private root inside the chroot: dpkg's options stay as apt gives them (inside), the
        // paths installtop reads are under both.
        let nested = APTEnvironment.parse(dump: Self.privateRootDump, aptConfig: "/tmp/r/etc/apt/apt.conf", chroot: "/srv/image/")
        #expect(nested.administrativeDirectory == "/srv/image/tmp/r/var/lib/dpkg")
        #expect(nested.root == "/srv/image/tmp/r")
        #expect(nested.rebootPackagesPath == "/srv/image/tmp/r/run/reboot-required.pkgs")
        #expect(nested.dpkgCommand(["--audit"]) == ["/usr/sbin/chroot", "/srv/image/", "/usr/bin/dpkg", "--root=/tmp/r",
                                                     "--log=/tmp/r/var/log/dpkg.log", "--force-script-chrootless", "--audit"])
        #expect(nested.commandEnvironment["APT_CONFIG"] == "/tmp/r/etc/apt/apt.conf", "read inside the chroot")
    }

    @Test("Without a chroot the commands run as given")
    func noChroot() {
        let environment = APTEnvironment.parse(dump: Self.privateRootDump, aptConfig: nil)
        #expect(environment.command(["/usr/bin/apt-get", "-s"]) == ["/usr/bin/apt-get", "-s"])
        #expect(environment.dpkgCommand(["--audit"]) == ["/usr/bin/dpkg", "--root=/tmp/r", "--log=/tmp/r/var/log/dpkg.log",
                                                         "--force-script-chrootless", "--audit"])
    }

    @Test("A chroot without apt in it is refused as apt missing, naming the folder", .enabled(if: getuid() == 0, "chroot needs root"))
    func chrootWithoutApt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-empty-chroot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: APTPlanError.self) { try APTEnvironment.resolve(aptConfig: nil, chroot: folder) }
        #expect(error?.kind == .aptMissing)
        #expect(error?.message.contains("not installed in \(folder)") == true, "\(error?.message ?? "")")
    }

    // MARK: - APTPackageState

    @Test("dpkg-query lines parse by package name, without the architecture")
    func parseStates() {
        let output = """
            lab-base ii  1.0
            lab-old rc  0.9
            libc6:amd64 ii  2.36-9
            lab-half iHR 1.0
            lab-gone un\u{20}\u{20}

            """
        let states = APTPackageState.parse(output)
        #expect(states["lab-base"] == APTPackageState(status: "ii", version: "1.0"))
        #expect(states["lab-old"] == APTPackageState(status: "rc", version: "0.9"))
        #expect(states["libc6"] == APTPackageState(status: "ii", version: "2.36-9"))
        #expect(states["lab-half"] == APTPackageState(status: "iHR", version: "1.0"))
        #expect(states["lab-gone"] == APTPackageState(status: "un", version: ""))
        #expect(states.count == 5)
    }

    @Test("Install and upgrade are satisfied by an installed package at the new version only", arguments: [
        (APTPackageState(status: "ii", version: "2.0"), true),
        (APTPackageState(status: "ii", version: "1.0"), false),
        (APTPackageState(status: "iU", version: "2.0"), false),
        (APTPackageState(status: "iF", version: "2.0"), false),
        (APTPackageState(status: "iHR", version: "2.0"), false),
        (APTPackageState(status: "rc", version: "2.0"), false),
        (APTPackageState.notInstalled, false),
    ])
    func installAndUpgrade(state: APTPackageState, satisfied: Bool) {
        #expect(state.satisfies(PackageChange(package: "p", action: .install, newVersion: "2.0")) == satisfied)
        #expect(state.satisfies(PackageChange(package: "p", action: .upgrade, oldVersion: "1.0", newVersion: "2.0")) == satisfied)
        #expect(state.satisfies(PackageChange(package: "p", action: .reinstall, oldVersion: "2.0", newVersion: "2.0")) == satisfied)
    }

    @Test("An install that names no version is satisfied by any installed version")
    func installWithoutVersion() {
        #expect(APTPackageState(status: "ii", version: "7").satisfies(PackageChange(package: "p", action: .install)))
        #expect(!APTPackageState(status: "iU", version: "7").satisfies(PackageChange(package: "p", action: .install)))
    }

    @Test("A removal is satisfied when the package is gone, its configuration files kept (rc) or not; a purge only when not", arguments: [
        (APTPackageState(status: "rc", version: "0.9"), true, false),
        (APTPackageState(status: "un", version: ""), true, true),
        (APTPackageState(status: "pn", version: ""), true, true),
        (APTPackageState.notInstalled, true, true),
        (APTPackageState(status: "ii", version: "0.9"), false, false),
        (APTPackageState(status: "iHR", version: "0.9"), false, false),
    ])
    func removeAndPurge(state: APTPackageState, removed: Bool, purged: Bool) {
        #expect(state.satisfies(PackageChange(package: "p", action: .remove, oldVersion: "0.9")) == removed)
        #expect(state.satisfies(PackageChange(package: "p", action: .purge, oldVersion: "0.9")) == purged)
    }

    @Test("description says dpkg's state in words, with the abbreviation when it is not plainly installed", arguments: [
        (APTPackageState(status: "ii", version: "1.0"), "installed at 1.0"),
        (APTPackageState(status: "ii", version: ""), "installed"),
        (APTPackageState.notInstalled, "not installed"),
        (APTPackageState(status: "rc", version: "0.9"), "removed, its configuration files kept"),
        (APTPackageState(status: "iU", version: "1.0"), "unpacked but not configured at 1.0 (iU)"),
        (APTPackageState(status: "iF", version: "1.0"), "half-configured at 1.0 (iF)"),
        (APTPackageState(status: "iHR", version: "1.0"), "half-installed at 1.0 (iHR)"),
        (APTPackageState(status: "iW", version: "1.0"), "waiting for triggers at 1.0 (iW)"),
    ])
    func description(state: APTPackageState, words: String) {
        #expect(state.description == words)
    }

    @Test("needsReinstall marks what dpkg left half-way")
    func needsReinstall() {
        #expect(APTPackageState(status: "iHR", version: "1").needsReinstall)
        #expect(APTPackageState(status: "iU", version: "1").needsReinstall)
        #expect(APTPackageState(status: "iF", version: "1").needsReinstall)
        #expect(!APTPackageState(status: "ii", version: "1").needsReinstall)
        #expect(!APTPackageState(status: "rc", version: "1").needsReinstall)
    }

    // MARK: - APTPlan

    private func plan(_ changes: [PackageChange], downloads: [APTDownload]) -> APTPlan {
        APTPlan(
            job: PackageJob(request: .install(["lab-app"])),
            environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
            changes: changes, downloads: downloads)
    }

    private func download(_ package: String, _ version: String, size: Int64) -> APTDownload {
        APTDownload(uri: "file:/r/./\(package)_\(version)_all.deb", fileName: "\(package)_\(version)_all.deb", package: package, size: size)
    }

    @Test("The summary counts each kind of change and what apt will fetch")
    func summary() {
        let full = plan([
            PackageChange(package: "lab-base", action: .install, newVersion: "1.0"),
            PackageChange(package: "lab-extra", action: .install, newVersion: "1.0"),
            PackageChange(package: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
            PackageChange(package: "lab-old", action: .remove, oldVersion: "0.9"),
            PackageChange(package: "lab-older", action: .purge, oldVersion: "0.1"),
        ], downloads: [download("lab-base", "1.0", size: 5242), download("lab-app", "2.0", size: 6000)])
        #expect(full.summary == "2 to install, 1 to upgrade, 2 to remove · 11.2 kB to download")
        #expect(full.downloadSize == 11242)
        let reinstall = plan([PackageChange(package: "lab-base", action: .reinstall, oldVersion: "1.0", newVersion: "1.0")], downloads: [])
        #expect(reinstall.summary == "1 to reinstall", "nothing to fetch, nothing said of it")
        let empty = plan([], downloads: [])
        #expect(empty.isEmpty)
        #expect(empty.summary == "nothing to do")
    }

    @Test("The plan's updates: one per package, id the package, titled with versions, sized from its downloads")
    func updates() {
        let changes = [
            PackageChange(package: "lab-base", action: .install, newVersion: "1.0"),
            PackageChange(package: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
            PackageChange(package: "lab-old", action: .remove, oldVersion: "0.9"),
        ]
        let updates = plan(changes, downloads: [
            download("lab-base", "1.0", size: 5242), download("lab-app", "2.0", size: 6000), download("lab-app", "2.0-extra", size: 10),
        ]).updates
        #expect(updates.map(\.id) == ["lab-base", "lab-app", "lab-old"])
        #expect(updates.map(\.title) == ["lab-base 1.0", "lab-app 1.0 → 2.0", "lab-old 0.9 (remove)"])
        #expect(updates.map(\.sizeInBytes) == [5242, 6010, nil], "a package's files add up; a removal fetches nothing")
        #expect(updates.map(\.package) == changes)
        #expect(updates.map(\.description) == ["install", "upgrade", "remove"])
        #expect(updates.allSatisfy { $0.rebootBehavior == .may }, "any package may ask for a reboot")
        #expect(updates.allSatisfy { $0.installCommand == nil }, "the driver runs them, not a command each")
    }

    // MARK: - ByteCountText

    @Test("Sizes in powers of 1000, one decimal above bytes", arguments: [
        (Int64(0), "0 B"),
        (512, "512 B"),
        (999, "999 B"),
        (1000, "1.0 kB"),
        (4096, "4.1 kB"),
        (11242, "11.2 kB"),
        (12_345_678, "12.3 MB"),
        (3_000_000_000, "3.0 GB"),
        (2_500_000_000_000, "2.5 TB"),
    ])
    func byteCount(bytes: Int64, text: String) {
        #expect(ByteCountText.text(bytes) == text)
    }
}
