import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import TextBasics
import Glibc

/// A private root for apt and dpkg in a folder of its own (Documentation/PACKAGE-FACTS.md): its own status file,
/// lists, cache, logs and `apt.conf.d`, a local repository of packages built offline from
/// `DebianPackageRecipe`s, and a configuration file that every apt command of the root gets
/// through `APT_CONFIG`, so nothing of the host's packages is read or changed.
///
/// The demo installs its packages into one; the benchmarks make many. Nothing is removed until
/// `remove()` is called: the owner calls it on every path out (the demo in a `defer`).
public final class PrivateAPTRoot: Sendable {
    /// The folder that holds everything below; `remove()` deletes it.
    public let folder: String
    /// The root dpkg installs into (`--root`).
    public let root: String
    /// The local repository (`deb [trusted=yes] file:REPO ./`): `folder/repo`, or another
    /// root's when it is shared.
    public let repository: String
    /// The file `APT_CONFIG` names.
    public let configuration: String
    /// The control text of each `.deb` this root built, by file name, for the index.
    private let controls = Mutex<[String: String]>([:])

    /// The tools a root needs; `requireTools()` checks them.
    public static let dpkgDeb = "/usr/bin/dpkg-deb"
    public static let aptGet = "/usr/bin/apt-get"
    static let sha256sum = "/usr/bin/sha256sum"

    /// The variables every apt or dpkg command of this root needs (no questions from debconf).
    public var environment: [String: String] {
        ["APT_CONFIG": configuration, "DEBIAN_FRONTEND": "noninteractive"]
    }

    /// Throws when `dpkg-deb`, `apt-get` or `sha256sum` is missing, so a caller can skip its
    /// apt work with one line instead of failing halfway through a build.
    public static func requireTools() throws(PrivateAPTRootError) {
        for tool in [dpkgDeb, aptGet, sha256sum] where !FileManager.default.isExecutableFile(atPath: tool) {
            let name = tool.split(separator: "/").last.map(String.init) ?? tool
            throw PrivateAPTRootError("\(name) is not installed (\(tool))")
        }
    }

    /// Makes a new folder `PREFIX-<pid>-<random>` under the temporary directory (`$TMPDIR`),
    /// mode 0700, and the root in it.
    /// - Parameter sharing: another root's repository to read packages from (then `publish`
    ///   is not needed, `update()` is).
    /// - Throws: when the folder or a file cannot be written; nothing is left behind then.
    public convenience init(temporaryWithPrefix prefix: String, sharing repository: String? = nil) throws(PrivateAPTRootError) {
        let base = FileManager.default.temporaryDirectory.path
        try self.init(folder: base + "/\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))", sharing: repository)
    }

    /// Makes the root's folders, an empty status file, `sources.list` and the configuration in
    /// `folder` (created, mode 0700; it may exist already and be empty).
    /// - Throws: when something cannot be written; what was created is removed then.
    public init(folder: String, sharing repository: String? = nil) throws(PrivateAPTRootError) {
        self.folder = folder
        root = folder + "/root"
        self.repository = repository ?? folder + "/repo"
        configuration = folder + "/apt.conf"
        do {
            try makeFolders(ownRepository: repository == nil)
        } catch {
            remove()
            throw PrivateAPTRootError("cannot make a private apt root in \(folder): \(ErrorText.reason(error))")
        }
    }

    /// Builds `recipes` into the repository, indexes it and runs `apt-get update`. Call it again
    /// to publish newer versions.
    /// - Throws: the first build or command that failed, in one line.
    public func publish(_ recipes: [DebianPackageRecipe]) throws(PrivateAPTRootError) {
        try build(recipes)
        try index()
        try update()
    }

    /// Builds each recipe into `REPO/NAME_VERSION_all.deb` with `dpkg-deb`, several at a time.
    /// - Throws: the first recipe that did not build.
    public func build(_ recipes: [DebianPackageRecipe]) throws(PrivateAPTRootError) {
        let failures = Mutex<[Int: PrivateAPTRootError]>([:])
        // dpkg-deb is a process each; a few at once keep a 200-package set to seconds.
        let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for index in stride(from: lane, to: recipes.count, by: lanes) {
                do throws(PrivateAPTRootError) {
                    try buildOne(recipes[index])
                } catch {
                    failures.withLock { $0[index] = error }
                }
            }
        }
        if let first = failures.withLock({ $0.min { $0.key < $1.key } }) { throw first.value }
    }

    /// Writes the repository's `Packages` index for every `.deb` in it, without dpkg-dev: each
    /// control text plus `Filename`, `Size` and `SHA256`, a blank line between entries.
    public func index() throws(PrivateAPTRootError) {
        let debs: [String]
        do {
            debs = try FileManager.default.contentsOfDirectory(atPath: repository).filter { $0.hasSuffix(".deb") }.sorted()
        } catch {
            throw PrivateAPTRootError("cannot read the repository \(repository): \(ErrorText.reason(error))")
        }
        var sums: [String: String] = [:]
        if !debs.isEmpty {
            let hashed = SystemCommand.run([Self.sha256sum] + debs.map { repository + "/" + $0 })
            guard hashed.status == 0 else { throw .failed("sha256sum", hashed) }
            for line in hashed.stdout.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
                guard fields.count == 2 else { continue }
                let path = fields[1].hasPrefix("*") ? fields[1].dropFirst() : fields[1]
                sums[String(path.split(separator: "/").last ?? path)] = String(fields[0])
            }
        }
        let known = controls.withLock { $0 }
        var text = ""
        for deb in debs {
            let path = repository + "/" + deb
            var control = known[deb]
            if control == nil {
                // A .deb this root did not build (another root's, or one put there by hand).
                let fields = SystemCommand.run([Self.dpkgDeb, "-f", path])
                guard fields.status == 0 else { throw .failed("dpkg-deb -f \(deb)", fields) }
                control = fields.stdout
            }
            guard let sum = sums[deb] else { throw PrivateAPTRootError("sha256sum printed no sum for \(deb)") }
            // stat's size: FoundationEssentials gives `.size` as a UInt, which `as? Int` misses.
            var file = stat()
            let size = stat(path, &file) == 0 ? Int(file.st_size) : 0
            text += (control ?? "").trimmingNewlines + "\nFilename: ./\(deb)\nSize: \(size)\nSHA256: \(sum)\n\n"
        }
        do {
            try text.write(toFile: repository + "/Packages", atomically: true, encoding: .utf8)
        } catch {
            throw PrivateAPTRootError("cannot write the repository's index: \(ErrorText.reason(error))")
        }
    }

    /// `apt-get update` in this root: reads the repository's index into the root's lists.
    public func update() throws(PrivateAPTRootError) {
        let arguments = [Self.aptGet, "-q", "update"]
        let result = SystemCommand.run(arguments, environment: environment)
        guard result.status == 0 else { throw .failed("apt-get update", result) }
    }

    /// Deletes the folder: the root, the repository (unless shared) and the configuration.
    /// Safe to call twice, and on a root whose making failed halfway.
    public func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    // MARK: - Making

    private func makeFolders(ownRepository: Bool) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for path in ["var/lib/apt/lists/partial", "var/cache/apt/archives/partial", "var/log/apt", "etc/apt/apt.conf.d",
                     "etc/apt/preferences.d", "var/lib/dpkg/updates", "var/lib/dpkg/info", "run"] {
            try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
        }
        if ownRepository { try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true) }
        try Data().write(to: URL(fileURLWithPath: root + "/var/lib/dpkg/status"))
        try "deb [trusted=yes] file:\(repository) ./\n".write(toFile: root + "/etc/apt/sources.list", atomically: true, encoding: .utf8)
        // Dir moves sources, lists, cache, logs, status and apt.conf.d into the root; without
        // --log dpkg would append to the host's dpkg.log; without --force-script-chrootless it
        // could not run maintainer scripts in the root (Documentation/PACKAGE-FACTS.md).
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

    /// One package: its tree in a scratch folder (modes set explicitly: dpkg-deb refuses a
    /// `DEBIAN` folder that is not 0755–0775, whatever the umask), then `dpkg-deb --build`.
    private func buildOne(_ recipe: DebianPackageRecipe) throws(PrivateAPTRootError) {
        let tree = folder + "/build/\(recipe.name)_\(recipe.version)"
        defer { try? FileManager.default.removeItem(atPath: tree) }
        do {
            try? FileManager.default.removeItem(atPath: tree)
            try Self.makeFolder(tree + "/DEBIAN")
            try Self.write(recipe.control, to: tree + "/DEBIAN/control", mode: 0o644)
            for script in recipe.maintainerScripts {
                try Self.write(script.text, to: tree + "/DEBIAN/" + script.name, mode: 0o755)
            }
            if !recipe.conffiles.isEmpty {
                try Self.write(recipe.conffiles.joined(separator: "\n") + "\n", to: tree + "/DEBIAN/conffiles", mode: 0o644)
            }
            if let triggers = recipe.triggers {
                try Self.write(triggers.hasSuffix("\n") ? triggers : triggers + "\n", to: tree + "/DEBIAN/triggers", mode: 0o644)
            }
            for (path, contents) in recipe.files {
                let target = tree + (path.hasPrefix("/") ? path : "/" + path)
                try Self.makeFolder(PathText.parent(of: target))
                try Self.write(contents, to: target, mode: 0o644)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree)
        } catch {
            throw PrivateAPTRootError("cannot write the files of \(recipe.name): \(ErrorText.reason(error))")
        }
        if recipe.withMD5Sums {
            // dh_md5sums' form: `SUM  PATH` relative to the root, every file but DEBIAN's.
            let sums = SystemCommand.run(["/bin/sh", "-c", """
                cd "$1" && find . -path ./DEBIAN -prune -o -type f -printf '%P\\0' | LC_ALL=C sort -z | xargs -0 -r md5sum > DEBIAN/md5sums
                """, "sh", tree])
            guard sums.status == 0 else { throw .failed("md5sum of \(recipe.name)", sums) }
        }
        let result = SystemCommand.run([Self.dpkgDeb, "--root-owner-group", "-Zgzip", "-z1", "--build", tree,
                                        repository + "/" + recipe.fileName])
        guard result.status == 0 else { throw .failed("dpkg-deb --build \(recipe.name)", result) }
        controls.withLock { $0[recipe.fileName] = recipe.control }
    }

    /// Makes `path` and its missing parents, each 0755 (they become the package's folders).
    private static func makeFolder(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    private static func write(_ text: String, to path: String, mode: Int) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
}
