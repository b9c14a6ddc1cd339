import Foundation
import InstallEngine
import Testing
import TestProcessSupport

@Suite("Manifest loading: fields, defaults, environment, workdirs")
struct ManifestLoaderTests {
    // MARK: - Helpers

    /// A fresh folder with a `scripts` subfolder; removed by `defer` in each test.
    private func makeFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("installtop-manifest-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        return folder
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    // MARK: - A full manifest

    private let fullManifest = """
        defaults:
          timeout: 30m
          abort_grace: 5s
          reboot: may
          progress: output
          env: {LANG: C.UTF-8, LEVEL: defaults, FROM_DEFAULTS: "1"}

        jobs:
          - name: Security updates
            operation: install
            stop_on_failure: true
            timeout: 10m
            env: {LEVEL: job, FROM_JOB: yes}
            updates:
              - id: openssl
                revision: 3
                title: OpenSSL 3.0.15 security fix
                install: [./scripts/apply.sh, openssl, 5]
                uninstall: ./scripts/revert.sh openssl
                reboot: never
                impact: minor
                progress: channel
                size: 4_200_000
                severity: critical
                description: Fixes CVE-2024-0001
                categories: [security, tls]
                workdir: scripts
                env: {DEBIAN_FRONTEND: noninteractive, LEVEL: update, COUNT: 5}
                timeout: 1h30m
                abort_grace: 1.5s
              - id: curl
                install: apt-get install -y curl
          - name: Cleanup
            operation: uninstall
            reboot: always
            timeout: none
            updates:
              - id: old-kernel
                uninstall: [apt-get, purge, -y, linux-image-old]
                impact: exclusive
        """

    @Test func everyFieldIsReadAndDefaultsJobAndUpdateOverrideInThatOrder() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/site.yaml"
        try write(fullManifest, to: path)
        // openssl's program is relative to its workdir (`scripts`), and must be there to run.
        try FileManager.default.createDirectory(atPath: folder + "/scripts/scripts", withIntermediateDirectories: true)
        try write("#!/bin/sh\n", to: folder + "/scripts/scripts/apply.sh")
        try ExecutableFile.makeExecutable(folder + "/scripts/scripts/apply.sh")

        let manifest = try ManifestLoader.load(contentsOfFile: path)

        #expect(manifest.path == path)
        #expect(manifest.jobs.count == 2)
        #expect(manifest.updateCount == 3)
        let security = manifest.jobs[0]
        #expect(security.name == "Security updates")
        #expect(security.operation == .install)
        #expect(security.stopOnFailure)
        #expect(security.line == 9)
        #expect(security.updates.count == 2)

        let openssl = Update(
            id: "openssl", revision: 3, title: "OpenSSL 3.0.15 security fix",
            installCommand: .argv(["./scripts/apply.sh", "openssl", "5"]),
            uninstallCommand: .shell("./scripts/revert.sh openssl"),
            rebootBehavior: .never, impact: .minor, progressSource: .channel,
            timeout: .seconds(5400), abortGrace: .milliseconds(1500),
            workingDirectory: folder + "/scripts",
            environment: [
                "LANG": "C.UTF-8", "FROM_DEFAULTS": "1", "FROM_JOB": "yes",
                "LEVEL": "update", "DEBIAN_FRONTEND": "noninteractive", "COUNT": "5",
            ],
            sizeInBytes: 4_200_000, severity: "critical", description: "Fixes CVE-2024-0001",
            categories: ["security", "tls"])
        #expect(security.updates[0] == openssl)

        // Only what the job and defaults say, plus the built-in defaults.
        let curl = Update(
            id: "curl", title: "curl", installCommand: .shell("apt-get install -y curl"),
            rebootBehavior: .may, impact: .normal, progressSource: .output,
            timeout: .seconds(600), abortGrace: .seconds(5), workingDirectory: folder,
            environment: ["LANG": "C.UTF-8", "FROM_DEFAULTS": "1", "FROM_JOB": "yes", "LEVEL": "job"])
        #expect(security.updates[1] == curl)

        let cleanup = manifest.jobs[1]
        #expect(cleanup.operation == .uninstall)
        #expect(!cleanup.stopOnFailure)
        #expect(cleanup.line == 33)
        let kernel = cleanup.updates[0]
        #expect(kernel.uninstallCommand == .argv(["apt-get", "purge", "-y", "linux-image-old"]))
        #expect(kernel.installCommand == nil)
        #expect(kernel.rebootBehavior == .always)
        #expect(kernel.timeout == nil, "`timeout: none` removes the default limit")
        #expect(kernel.impact == .exclusive, "an exclusive update alone in its job is fine")
        #expect(kernel.environment["LEVEL"] == "defaults")
    }

    @Test func builtInDefaultsApplyWhenNothingIsSaid() throws {
        let manifest = try ManifestLoader.load(
            yaml: "jobs:\n  - name: J\n    updates:\n      - id: u\n        install: 'true'\n",
            path: "/srv/m.yaml")
        let update = try #require(manifest.jobs.first?.updates.first)
        #expect(update == Update(id: "u", installCommand: .shell("true"), workingDirectory: "/srv"))
        #expect(update.revision == 1)
        #expect(update.title == "u")
        #expect(update.rebootBehavior == .never)
        #expect(update.impact == .normal)
        #expect(update.progressSource == .channel)
        #expect(update.timeout == nil)
        #expect(update.abortGrace == .seconds(10))
        #expect(manifest.jobs[0].operation == .install)
        #expect(manifest.jobs[0].stopOnFailure == false)
    }

    // MARK: - Working directories

    @Test func workdirsResolveAgainstTheManifestFolderNotTheCurrentOne() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let yaml = """
            defaults:
              workdir: ./scripts/../scripts/.
            jobs:
              - name: J
                updates:
                  - id: inherits-defaults
                    install: x
                  - id: absolute
                    install: x
                    workdir: /tmp/
                  - id: parent
                    install: x
                    workdir: ..
            """
        let manifest = try ManifestLoader.load(yaml: yaml, path: folder + "/m.yaml")
        let updates = manifest.jobs[0].updates
        #expect(updates[0].workingDirectory == folder + "/scripts")
        #expect(updates[1].workingDirectory == "/tmp")
        #expect(updates[2].workingDirectory == URL(fileURLWithPath: folder).deletingLastPathComponent().standardizedFileURL.path)
    }

    @Test func aRelativeManifestPathStartsAtTheCurrentFolder() throws {
        let manifest = try ManifestLoader.load(
            yaml: "jobs:\n  - name: J\n    updates:\n      - {id: u, install: x}\n", path: "sub/m.yaml")
        let expected = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("sub").standardizedFileURL.path
        #expect(manifest.jobs[0].updates[0].workingDirectory == expected)
        #expect(manifest.path == "sub/m.yaml")
    }

    @Test func aWorkdirThatIsAFileOrMissingIsAnError() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write("#!/bin/sh\n", to: folder + "/scripts/apply.sh")
        let yaml = """
            jobs:
              - name: J
                workdir: scripts/apply.sh
                updates:
                  - {id: u, install: x, workdir: missing}
            """
        let path = folder + "/m.yaml"
        let errors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(yaml: yaml, path: path) }
        #expect(errors?.errors.map(\.description) == [
            "\(path):3:14: workdir `\(folder)/scripts/apply.sh` is not a directory",
            "\(path):5:38: workdir `\(folder)/missing` does not exist",
        ])
    }

    // MARK: - YAML features

    @Test func anchorsAndMergeKeysShareSettings() throws {
        let yaml = """
            x-common: &common
              reboot: may
              env: {A: "1"}
            jobs:
              - name: J
                updates:
                  - <<: *common
                    id: a
                    install: x
                  - <<: [*common, {progress: none}]
                    id: b
                    install: x
                    reboot: always
            """
        // `x-common` is not a manifest key: merge keys are for anchors inside known places.
        let errors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(yaml: yaml, path: "m.yaml") }
        #expect(errors?.errors.first?.message.hasPrefix("unknown key `x-common` at the top level") == true)

        let valid = """
            defaults: &common
              reboot: may
            jobs:
              - name: J
                updates:
                  - <<: *common
                    id: a
                    install: x
                  - <<: [{progress: none}, *common]
                    id: b
                    install: x
                    reboot: always
            """
        let updates = try ManifestLoader.load(yaml: valid, path: "m.yaml").jobs[0].updates
        #expect(updates[0].rebootBehavior == .may)
        #expect(updates[1].rebootBehavior == .always, "a key written in the mapping wins over a merged one")
        #expect(updates[1].progressSource == ProgressSource.none)
    }

    @Test func stringFieldsKeepTheTextAsWritten() throws {
        let yaml = """
            jobs:
              - name: 2024
                updates:
                  - id: 007
                    title: 1.10
                    install: [sleep, 0.5]
                    severity: yes
            """
        let job = try ManifestLoader.load(yaml: yaml, path: "m.yaml").jobs[0]
        #expect(job.name == "2024")
        #expect(job.updates[0].id == "007")
        #expect(job.updates[0].title == "1.10")
        #expect(job.updates[0].installCommand == .argv(["sleep", "0.5"]))
        #expect(job.updates[0].severity == "yes")
    }

    // MARK: - Files

    @Test func anUnreadableFileIsOneErrorWithoutAPosition() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/nope.yaml"
        let errors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(contentsOfFile: missing) }
        #expect(errors?.errors == [
            ManifestError(file: missing, message: "no such file")
        ])
        #expect(errors?.description == "\(missing): no such file")
        let directory = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(contentsOfFile: folder) }
        #expect(directory?.errors.map(\.description) == ["\(folder): cannot read the manifest: Is a directory"])
    }

    @Test func bytesThatAreNotUTF8ArePointedAt() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/m.yaml"
        try Data("jobs:\n  - name: ab".utf8 + [0xFF] + "\n".utf8).write(to: URL(fileURLWithPath: path))
        let errors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(contentsOfFile: path) }
        #expect(errors?.errors.map(\.description) == ["\(path):2:13: the manifest is not valid UTF-8 text"])
    }

    // MARK: - Programs

    @Test("a program given as a path must be an executable file relative to the workdir; a name not on PATH is a warning")
    func programsAreCheckedWhereTheyCanBe() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write("#!/bin/sh\n", to: folder + "/scripts/ok.sh")
        try ExecutableFile.makeExecutable(folder + "/scripts/ok.sh")
        try write("#!/bin/sh\n", to: folder + "/scripts/no-x.sh")
        let path = folder + "/m.yaml"
        try write("""
            jobs:
              - name: J
                updates:
                  - {id: a, install: [./scripts/ok.sh]}
                  - {id: b, install: [./scripts/missing.sh]}
                  - {id: c, install: [./scripts/no-x.sh, arg]}
                  - {id: d, install: [./scripts]}
                  - {id: e, install: [ok.sh], workdir: scripts}
                  - {id: f, install: "./scripts/missing.sh"}
                  - {id: g, install: [no-such-program-installtop]}
                  - {id: h, install: [ok.sh], env: {PATH: scripts}, workdir: .}
              - name: U
                operation: uninstall
                updates:
                  - {id: i, install: [./scripts/missing.sh], uninstall: [./scripts/gone.sh]}
            """, to: path)
        do {
            _ = try ManifestLoader.load(contentsOfFile: path)
            Issue.record("loaded a manifest whose programs are missing")
        } catch {
            #expect(error.errors.map { "\($0.line):\($0.column): \($0.message)" } == [
                "5:27: `./scripts/missing.sh` does not exist (\(folder)/scripts/missing.sh)",
                "6:27: `./scripts/no-x.sh` is not executable (\(folder)/scripts/no-x.sh); make it so with chmod +x",
                "7:27: `./scripts` is not a file (\(folder)/scripts)",
                "15:62: `./scripts/gone.sh` does not exist (\(folder)/scripts/gone.sh)",
            ])
        }
        try write("""
            jobs:
              - name: J
                updates:
                  - {id: a, install: [./scripts/ok.sh]}
                  - {id: g, install: [no-such-program-installtop]}
                  - {id: h, install: [ok.sh], env: {PATH: scripts}}
            """, to: path)
        let manifest = try ManifestLoader.load(contentsOfFile: path)
        #expect(manifest.warnings.map { "\($0.line):\($0.column): \($0.message)" } == [
            "5:27: warning: `no-such-program-installtop` is not an executable on PATH now; the update fails unless it is there when it runs",
        ])
    }
}
