#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A private root for dnf and rpm in a folder of its own: the root (`--installroot`) with its
/// `etc/yum.repos.d/lab.repo` and `etc/dnf/dnf.conf`, a local repository (`file://`) of rpms
/// built offline from `RPMPackageRecipe`s, and a home folder for rpmbuild, so nothing of the
/// host's is read or written. The tests and the benchmarks make them; `remove()` deletes one.
public final class PrivateDNFRoot: Sendable {
    /// The folder that holds everything below.
    public let folder: String
    /// The root dnf acts on (`--installroot`).
    public let root: String
    /// The repository's folder (`baseurl=file://…`).
    public let repository: String
    /// `$releasever` of the root.
    public let releaseVersion = "1"
    private var build: String { folder + "/build" }
    private var home: String { folder + "/home" }

    public static let rpmbuild = "/usr/bin/rpmbuild"
    public static let createrepo = "/usr/bin/createrepo_c"
    public static let rpm = "/usr/bin/rpm"

    /// Throws when rpmbuild, createrepo_c, rpm or dnf's Python API is missing, so a caller can
    /// skip its dnf work with one line.
    public static func requireTools() throws(PrivateDNFRootError) {
        for tool in [rpmbuild, createrepo, rpm] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw PrivateDNFRootError("\(tool) is not installed")
        }
        guard FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dnf/__init__.py") else {
            throw PrivateDNFRootError("dnf's Python API (python3-dnf) is not installed")
        }
    }

    /// Makes `PREFIX-<pid>-<random>` under the temporary directory, mode 0700, with an empty
    /// root that reads only the lab repository.
    public init(temporaryWithPrefix prefix: String) throws(PrivateDNFRootError) {
        folder = FileManager.default.temporaryDirectory.path + "/\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))"
        root = folder + "/root"
        repository = folder + "/repo"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for path in [root + "/etc/yum.repos.d", root + "/etc/dnf", root + "/var/log", repository, build, home] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
            try write("[lab]\nname=installtop lab\nbaseurl=file://\(repository)\nenabled=1\ngpgcheck=0\nmetadata_expire=0\n",
                      to: root + "/etc/yum.repos.d/lab.repo")
            // Weak dependencies and the installed packages' cleanup as dnf's defaults on RHEL.
            try write("[main]\ngpgcheck=0\ninstallonly_limit=3\nclean_requirements_on_remove=True\nbest=True\n",
                      to: root + "/etc/dnf/dnf.conf")
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw PrivateDNFRootError("cannot make \(folder): \(error)")
        }
    }

    /// Builds `recipes` into the repository and indexes it again.
    public func publish(_ recipes: [RPMPackageRecipe]) throws(PrivateDNFRootError) {
        guard !recipes.isEmpty else { return }
        var specs: [String] = []
        for recipe in recipes {
            let spec = build + "/\(recipe.name)-\(recipe.evr).spec"
            do { try write(recipe.spec, to: spec) } catch { throw PrivateDNFRootError("cannot write \(spec): \(error)") }
            specs.append(spec)
        }
        let built = SystemCommand.run([Self.rpmbuild, "--quiet", "-bb", "--define", "_topdir \(build)", "--define", "_rpmdir \(repository)",
                                       "--define", "_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm"] + specs,
                                      environment: ["HOME": home])
        guard built.status == 0 else { throw PrivateDNFRootError("rpmbuild failed: \(built.stderr)") }
        try index()
    }

    /// Takes `recipe`'s rpm out of the repository (an archive that moved on).
    public func withdraw(_ recipe: RPMPackageRecipe) throws(PrivateDNFRootError) {
        try? FileManager.default.removeItem(atPath: repository + "/" + recipe.fileName)
        try index()
    }

    /// Every version of `name` the root's rpm database holds (`[epoch:]version-release`).
    public func installedVersions(of name: String) -> [String] {
        let result = SystemCommand.run([Self.rpm, "--root", root, "--dbpath", "/var/lib/rpm", "-q", "--qf",
                                        "%|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}\\n", name])
        guard result.status == 0 else { return [] }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Indexes the repository again and drops the root's metadata cache: dnf counts the cache's
    /// age in whole seconds, so with `metadata_expire=0` a repository changed within the second
    /// its metadata was read looks unchanged (`dnf clean metadata` in dnf's words).
    private func index() throws(PrivateDNFRootError) {
        let indexed = SystemCommand.run([Self.createrepo, "--quiet", repository], environment: ["HOME": home])
        guard indexed.status == 0 else { throw PrivateDNFRootError("createrepo_c failed: \(indexed.stderr)") }
        try? FileManager.default.removeItem(atPath: root + "/var/cache/dnf")
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
