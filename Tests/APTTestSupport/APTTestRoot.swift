import Foundation
import InstallDrivers

/// A private root for apt and dpkg in a temporary folder (Documentation/PACKAGE-FACTS.md), for tests: the
/// product's `PrivateAPTRoot` (its own status file, lists, cache, logs and `apt.conf.d`, a local
/// repository, every apt command through `APT_CONFIG`), plus what tests read back: dpkg's
/// states, its audit, and apt run by hand.
public final class APTTestRoot {
    private let lab: PrivateAPTRoot

    /// The root dpkg installs into.
    public var root: String { lab.root }
    /// The local repository (`deb [trusted=yes] file:REPO ./`).
    public var repository: String { lab.repository }
    /// The file `APT_CONFIG` names.
    public var configuration: String { lab.configuration }

    /// The variables every apt or dpkg command of this root needs.
    public var environment: [String: String] {
        lab.environment.merging(["LC_ALL": "C.UTF-8"]) { _, new in new }
    }

    /// Makes the folders, the configuration and an empty status file; `publish` adds packages.
    public init() throws {
        lab = try PrivateAPTRoot(temporaryWithPrefix: "installtop-apt")
    }

    /// The same in `folder` (created; it may exist and be empty), which the caller removes:
    /// for a root that lives and goes with a test's folder.
    public init(folder: String) throws {
        lab = try PrivateAPTRoot(folder: folder)
    }

    /// Builds `packages` with `dpkg-deb`, indexes the repository (without dpkg-dev) and runs
    /// `apt-get update`. Call it again to publish newer versions.
    public func publish(_ packages: [TestPackage]) throws {
        try lab.publish(packages)
    }

    /// Runs `apt-get ARGUMENTS` against this root.
    @discardableResult
    public func aptGet(_ arguments: [String], check: Bool = false) throws -> TestCommand {
        let command = [PrivateAPTRoot.aptGet] + arguments
        return check ? try TestCommand.check(command, environment: environment) : try TestCommand.run(command, environment: environment)
    }

    /// Every package dpkg knows in this root with its status abbreviation (`ii`, `iU`, `iHR` …)
    /// and version.
    public func states() throws -> [String: APTPackageState] {
        // Run here rather than by `APTPackageState.query`, which answers "nothing" when
        // dpkg-query fails: a test must not pass on a query that did not run.
        APTPackageState.parse(try TestCommand.check(APTPackageState.queryCommand(administrativeDirectory: "\(root)/var/lib/dpkg")).stdout)
    }

    /// What `dpkg --audit` says about this root: empty when the database is consistent
    /// (it exits 0 either way, Documentation/PACKAGE-FACTS.md).
    public func audit() throws -> String {
        try TestCommand.run(["/usr/bin/dpkg", "--root=\(root)", "--admindir=\(root)/var/lib/dpkg", "--audit"]).stdout
    }

    /// What `dpkg --verify PACKAGE` says about this root, conffiles left out (an edited one is
    /// no damage): a line for each file that differs from what dpkg recorded or is missing;
    /// empty when every file is as recorded.
    /// - Throws: when dpkg could not verify (it exits 0 when all is as recorded, 1 when not).
    public func unverifiedFiles(of package: String) throws -> [String] {
        let arguments = ["/usr/bin/dpkg", "--admindir=\(root)/var/lib/dpkg", "--instdir=\(root)", "--verify", package]
        let verify = try TestCommand.run(arguments)
        guard verify.status == 0 || verify.status == 1 else { throw TestCommandError(arguments: arguments, result: verify) }
        return verify.stdout.split(separator: "\n").map(String.init).filter { !$0.contains(" c /") }
    }

    /// Deletes the root, the repository and the configuration.
    public func remove() {
        lab.remove()
    }
}
