import Foundation

/// A private root for apt and dpkg in a temporary folder (PACKAGES.md): its own status file,
/// lists, cache, logs and `apt.conf.d`, a local repository of `TestPackage`s, and every apt
/// command run through `APT_CONFIG` so nothing of the host's packages is read or changed.
public final class APTTestRoot {
    /// The root dpkg installs into.
    public let root: String
    /// The local repository (`deb [trusted=yes] file:REPO ./`).
    public let repository: String
    /// The file `APT_CONFIG` names.
    public let configuration: String

    /// The variables every apt or dpkg command of this root needs.
    public var environment: [String: String] {
        ["APT_CONFIG": configuration, "DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C.UTF-8"]
    }

    /// Makes the folders, the configuration and an empty status file; `publish` adds packages.
    public init() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "installtop-apt-\(UUID().uuidString.prefix(8))").path
        root = base + "/root"
        repository = base + "/repo"
        configuration = base + "/apt.conf"
        for folder in ["var/lib/apt/lists/partial", "var/cache/apt/archives/partial", "var/log/apt", "etc/apt/apt.conf.d",
                       "etc/apt/preferences.d", "var/lib/dpkg/updates", "var/lib/dpkg/info", "run"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: root + "/var/lib/dpkg/status"))
        try "deb [trusted=yes] file:\(repository) ./\n".write(toFile: root + "/etc/apt/sources.list", atomically: true, encoding: .utf8)
        let notRoot = getuid() == 0 ? "" : "\"--force-not-root\"; "
        let text = """
            Dir "\(root)/";
            DPkg::Options { "--root=\(root)"; "--log=\(root)/var/log/dpkg.log"; "--force-script-chrootless"; \
            "--force-confdef"; "--force-confold"; \(notRoot)};
            APT::Sandbox::User "root";
            Acquire::Languages "none";

            """
        try text.write(toFile: configuration, atomically: true, encoding: .utf8)
    }

    /// Builds `packages` with `dpkg-deb`, indexes the repository (without dpkg-dev: each
    /// control file plus `Filename`, `Size` and `SHA256`) and runs `apt-get update`. Call it
    /// again to publish newer versions.
    public func publish(_ packages: [TestPackage]) throws {
        for package in packages { try build(package) }
        var index = ""
        let debs = try FileManager.default.contentsOfDirectory(atPath: repository).filter { $0.hasSuffix(".deb") }.sorted()
        for deb in debs {
            let path = repository + "/" + deb
            let control = try TestCommand.check(["/usr/bin/dpkg-deb", "-f", path]).stdout
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            let sum = try TestCommand.check(["/usr/bin/sha256sum", path]).stdout.prefix { $0 != " " }
            index += control.trimmingCharacters(in: .newlines) + "\nFilename: ./\(deb)\nSize: \(size)\nSHA256: \(sum)\n\n"
        }
        try index.write(toFile: repository + "/Packages", atomically: true, encoding: .utf8)
        try aptGet(["update"], check: true)
    }

    /// Runs `apt-get ARGUMENTS` against this root.
    @discardableResult
    public func aptGet(_ arguments: [String], check: Bool = false) throws -> TestCommand {
        let command = ["/usr/bin/apt-get"] + arguments
        return check ? try TestCommand.check(command, environment: environment) : try TestCommand.run(command, environment: environment)
    }

    /// Every package dpkg knows in this root with its status abbreviation (`ii`, `iU`, `iHR` …)
    /// and version.
    public func states() throws -> [String: (status: String, version: String)] {
        let output = try TestCommand.check([
            "/usr/bin/dpkg-query", "--admindir=\(root)/var/lib/dpkg", "-W", "-f=${Package} ${db:Status-Abbrev} ${Version}\n",
        ]).stdout
        var states: [String: (status: String, version: String)] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2 else { continue }
            states[String(fields[0])] = (String(fields[1]), fields.count > 2 ? String(fields[2]) : "")
        }
        return states
    }

    /// What `dpkg --audit` says about this root: empty when the database is consistent
    /// (it exits 0 either way, PACKAGES.md).
    public func audit() throws -> String {
        try TestCommand.run(["/usr/bin/dpkg", "--root=\(root)", "--admindir=\(root)/var/lib/dpkg", "--audit"]).stdout
    }

    /// Deletes the root, the repository and the configuration.
    public func remove() {
        try? FileManager.default.removeItem(atPath: (configuration as NSString).deletingLastPathComponent)
    }

    private func build(_ package: TestPackage) throws {
        let tree = repository + "/build-\(package.name)-\(package.version)"
        defer { try? FileManager.default.removeItem(atPath: tree) }
        try FileManager.default.createDirectory(atPath: tree + "/DEBIAN", withIntermediateDirectories: true)
        var control = """
            Package: \(package.name)
            Version: \(package.version)
            Architecture: all
            Maintainer: installtop tests <tests@invalid>
            Description: installtop test package \(package.name)

            """
        if let depends = package.depends { control += "Depends: \(depends)\n" }
        try control.write(toFile: tree + "/DEBIAN/control", atomically: true, encoding: .utf8)
        for (name, body) in [("preinst", package.preinst), ("postinst", package.postinst), ("prerm", package.prerm)] {
            guard let body else { continue }
            let path = tree + "/DEBIAN/" + name
            try "#!/bin/sh\nset -e\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        if !package.conffiles.isEmpty {
            try (package.conffiles.joined(separator: "\n") + "\n").write(toFile: tree + "/DEBIAN/conffiles", atomically: true, encoding: .utf8)
        }
        for (path, contents) in package.files {
            let target = tree + path
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try contents.write(toFile: target, atomically: true, encoding: .utf8)
        }
        try TestCommand.check(["/usr/bin/dpkg-deb", "--root-owner-group", "-Zgzip", "-z1", "--build", tree, repository + "/" + package.fileName])
    }
}
