import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// Manifest jobs with `apt:` (Documentation/APT-JOBS.md): one apt request each, read into
/// `ManifestJob.package`; every mistake located at file:line:column before anything runs.
@Suite("Manifest: apt jobs")
struct ManifestPackageJobTests {
    /// Not a real folder: only the apt_config test needs the file system.
    static let path = "/nonexistent-installtop/m.yaml"

    private func job(_ apt: String, extra: String = "") throws -> ManifestJob {
        let manifest = try ManifestLoader.load(yaml: "jobs:\n  - name: pkgs\n\(extra)    apt: \(apt)\n", path: Self.path, kinds: testKinds.all)
        return try #require(manifest.jobs.first)
    }

    /// The errors `yaml` is refused with, as `LINE:COLUMN: message`.
    private func errors(_ yaml: String, path: String = Self.path) -> [String] {
        let thrown = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(yaml: yaml, path: path, kinds: testKinds.all) }
        #expect(thrown?.errors.allSatisfy { $0.file == path } ?? false, "every error names the file")
        return thrown?.errors.map { "\($0.line):\($0.column): \($0.message)" } ?? []
    }

    // MARK: - Requests

    @Test("install: a list of packages is an install job")
    func install() throws {
        let read = try job("{install: [curl, openssl]}")
        #expect(read.package == PackageJob(request: .install(["curl", "openssl"])))
        #expect(read.operation == .install)
        #expect(read.updates.isEmpty, "apt's plan gives the updates")
        #expect(read.name == "pkgs")
        #expect(read.line == 2)
    }

    @Test("upgrade: true and full_upgrade: true are install jobs; a false flag asks for nothing")
    func upgrades() throws {
        #expect(try job("{upgrade: true}").package?.request == .upgrade)
        #expect(try job("{full_upgrade: yes}").package?.request == .fullUpgrade)
        #expect(try job("{upgrade: true, full_upgrade: false}").package?.request == .upgrade)
        #expect(try job("{full_upgrade: true}").operation == .install)
    }

    @Test("reinstall: a list of packages (a version may be pinned) is an install job, said as apt reinstall")
    func reinstall() throws {
        let read = try job("{reinstall: [curl, 'lab-a=1.0']}")
        #expect(read.package == PackageJob(request: .reinstall(packages: ["curl", "lab-a=1.0"], repairing: nil)))
        #expect(read.operation == .install)
        #expect(APTJobKind.summary(of: .reinstall(packages: ["curl", "lab-a=1.0"], repairing: nil)) == "apt reinstall curl lab-a=1.0")
        #expect(APTJobKind.summary(of: .reinstall(packages: ["lab-a=1.0"], repairing: 3)) == "apt repair 3")
        #expect(APTCommandLine(request: .reinstall(packages: ["lab-a=1.0"], repairing: 3)).simulation
            == ["/usr/bin/apt-get", "-s", "install", "--reinstall", "lab-a=1.0"])
    }

    @Test("remove: a list of packages is an uninstall job; operation uninstall may be said")
    func remove() throws {
        let read = try job("{remove: [telnet]}")
        #expect(read.package == PackageJob(request: .remove(["telnet"])))
        #expect(read.operation == .uninstall)
        let said = try job("{remove: [telnet]}", extra: "    operation: uninstall\n")
        #expect(said.operation == .uninstall)
        let install = try job("{install: [curl]}", extra: "    operation: install\n")
        #expect(install.operation == .install)
    }

    @Test("A block mapping reads the same, and stop_on_failure is kept")
    func blockMapping() throws {
        let yaml = """
            jobs:
              - name: tools
                stop_on_failure: true
                apt:
                  install:
                    - jq
                    - curl
            """
        let read = try #require(try ManifestLoader.load(yaml: yaml, path: Self.path, kinds: testKinds.all).jobs.first)
        #expect(read.package?.request == .install(["jq", "curl"]))
        #expect(read.stopOnFailure)
    }

    // MARK: - apt_config

    @Test("apt_config is relative to the manifest's folder and must exist")
    func aptConfig() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-apt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/etc", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("Dir \"/tmp/r/\";\n".utf8).write(to: URL(fileURLWithPath: folder + "/etc/apt.conf"))
        let path = folder + "/site.yaml"

        let manifest = try ManifestLoader.load(
            yaml: "jobs:\n  - name: a\n    apt: {upgrade: true, apt_config: etc/../etc/apt.conf}\n", path: path, kinds: testKinds.all)
        #expect(manifest.jobs.first?.package == PackageJob(request: .upgrade, aptConfig: folder + "/etc/apt.conf"))

        let absolute = try ManifestLoader.load(
            yaml: "jobs:\n  - name: a\n    apt: {upgrade: true, apt_config: \(folder)/etc/apt.conf}\n", path: path, kinds: testKinds.all)
        #expect(absolute.jobs.first?.package?.aptConfig == folder + "/etc/apt.conf")

        #expect(errors("jobs:\n  - name: a\n    apt: {upgrade: true, apt_config: etc/missing.conf}\n", path: path) == [
            "3:38: apt_config `\(folder)/etc/missing.conf` does not exist",
        ])
    }

    @Test("chroot is relative to the manifest's folder and must be a folder")
    func chroot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-chroot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/images/web", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data().write(to: URL(fileURLWithPath: folder + "/file"))
        let path = folder + "/site.yaml"

        let manifest = try ManifestLoader.load(yaml: "jobs:\n  - name: a\n    apt: {upgrade: true, chroot: images/./web}\n", path: path, kinds: testKinds.all)
        #expect(manifest.jobs.first?.package == PackageJob(request: .upgrade, chroot: folder + "/images/web"))
        #expect(errors("jobs:\n  - name: a\n    apt: {upgrade: true, chroot: file}\n", path: path) == [
            "3:34: chroot `\(folder)/file` is not a folder",
        ])
        #expect(errors("jobs:\n  - name: a\n    apt: {upgrade: true, chroot: missing}\n", path: path) == [
            "3:34: chroot `\(folder)/missing` is not a folder",
        ])
    }

    @Test("Without apt_config the job uses installtop's own configuration")
    func noAptConfig() throws {
        #expect(try job("{upgrade: true}").package?.aptConfig == nil)
    }

    // MARK: - Errors

    @Test("apt and updates together are refused at updates")
    func aptAndUpdates() {
        let yaml = "jobs:\n  - name: a\n    apt: {install: [curl]}\n    updates:\n      - {id: fine, install: 'true'}\n"
        #expect(errors(yaml) == ["4:5: job `a` has both `apt` and `updates`; an apt job's updates are the packages apt plans"])
    }

    @Test("An apt mapping with no request is refused")
    func noRequest() {
        #expect(errors("jobs:\n  - name: a\n    apt: {}\n") == [
            "3:10: expected one of install, upgrade, full_upgrade, remove or reinstall in apt; got none",
        ])
        #expect(errors("jobs:\n  - name: a\n    apt: {upgrade: false}\n") == [
            "3:10: expected one of install, upgrade, full_upgrade, remove or reinstall in apt; got none",
        ])
    }

    @Test("An apt mapping with two requests is refused")
    func twoRequests() {
        #expect(errors("jobs:\n  - name: a\n    apt: {install: [curl], remove: [telnet]}\n") == [
            "3:10: expected one of install, upgrade, full_upgrade, remove or reinstall in apt; got 2",
        ])
    }

    @Test("An empty package list is refused at the list")
    func emptyList() {
        #expect(errors("jobs:\n  - name: a\n    apt: {install: []}\n") == ["3:20: `install` names no package"])
        #expect(errors("jobs:\n  - name: a\n    apt: {remove: []}\n") == ["3:19: `remove` names no package"])
    }

    @Test("An unknown key inside apt is refused with the known keys and the one probably meant")
    func unknownKey() {
        let found = errors("jobs:\n  - name: a\n    apt: {instal: [curl]}\n")
        #expect(found.contains(
            "3:11: unknown key `instal` in apt; expected one of: install, upgrade, full_upgrade, remove, reinstall, apt_config, chroot; did you mean `install`?"
        ))
    }

    @Test("operation: install on a remove is refused at operation")
    func operationMismatch() {
        #expect(errors("jobs:\n  - name: a\n    operation: install\n    apt: {remove: [telnet]}\n") == [
            "3:5: job `a`: `operation` is uninstall for this apt request; leave it out",
        ])
        #expect(errors("jobs:\n  - name: a\n    operation: uninstall\n    apt: {upgrade: true}\n") == [
            "3:5: job `a`: `operation` is install for this apt request; leave it out",
        ])
    }

    @Test("Wrong types inside apt are refused at the value")
    func wrongTypes() {
        #expect(errors("jobs:\n  - name: a\n    apt: {install: curl}\n") == ["3:20: expected a list of strings; got `curl`"])
        #expect(errors("jobs:\n  - name: a\n    apt: {upgrade: please}\n") == ["3:20: expected true or false; got `please`"])
        #expect(errors("jobs:\n  - name: a\n    apt: [curl]\n").first?.hasPrefix("3:10: expected an apt request") == true)
    }

    // MARK: - validate

    @Test func theSuccessLineNamesAnAptJobInsteadOfCountingNoUpdates() throws {
        let apt = try ManifestLoader.load(yaml: "jobs:\n  - name: P\n    apt: {install: [curl]}\n", path: "apt.yaml", kinds: testKinds.all)
        #expect(apt.validationSummary == "apt.yaml: OK — 1 job: an apt transaction (planned when it runs)")
        let mixed = try ManifestLoader.load(
            yaml: """
                jobs:
                  - name: A
                    updates: [{id: a, install: x}, {id: b, install: x}]
                  - name: P
                    apt: {install: [curl]}
                  - name: Q
                    apt: {remove: [cowsay]}
                """,
            path: "mixed.yaml", kinds: testKinds.all)
        #expect(mixed.validationSummary == "mixed.yaml: OK — 3 jobs: 2 updates, 2 apt transactions (planned when it runs)")
    }
}
