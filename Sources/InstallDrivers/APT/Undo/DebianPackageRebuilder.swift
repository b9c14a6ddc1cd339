#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics
import Glibc

/// Rebuilds an installed package's .deb from what dpkg installed, the way dpkg-repack does
/// (Documentation/PACKAGE-FACTS.md "Rebuilding"): the status stanza less Status and Conffiles as `DEBIAN/control`
/// (exact-version Depends and Installed-Size kept), the maintainer scripts and the other
/// control files of `info/`, the conffiles list, and every path of `info/P.list` copied with
/// its mode, owner and times; then `dpkg-deb -Zgzip -z1 --build`, and the result verified.
///
/// Own code rather than dpkg-repack: dpkg-repack is a package of its own (absent on a minimal
/// Debian and on the machines this was built on), it exits 0 when it fails and writes nothing
/// (so its every result must be checked anyway), and its default compression (xz) takes 8
/// times as long as gzip -1 for 50 MiB. The steps are few and the ones verified by hand.
///
/// An edited conffile is copied as it is now: the rebuilt package carries the edit as its own
/// content, which dpkg records as the original when an undo installs it. A cache hit is
/// preferred for that reason; after an undo from a rebuild, `DpkgConffileRecord` gives dpkg
/// back the hashes recorded when the version was kept (rule 36).
struct DebianPackageRebuilder: Sendable {
    /// The root dpkg installed into (`/` for the system).
    var root: String
    var dpkgDeb: String

    /// Control files of `info/` a rebuilt package carries, with their modes.
    private static let controlFiles: [(suffix: String, mode: Int)] = [
        ("preinst", 0o755), ("postinst", 0o755), ("prerm", 0o755), ("postrm", 0o755), ("config", 0o755),
        ("templates", 0o644), ("triggers", 0o644), ("shlibs", 0o644), ("symbols", 0o644), ("md5sums", 0o644),
    ]

    /// Status fields that describe the installation, not the package.
    private static let installationFields: Set<String> = ["Status", "Conffiles", "Config-Version"]

    /// Writes `package`, rebuilt, to `file`; a work folder beside it is removed either way.
    /// - Throws: `APTKeepError` when a step fails or the result does not read back as the
    ///   package (name, version, architecture) with at least the files found installed.
    func rebuild(_ package: APTInstalledPackage, into file: String) throws(APTKeepError) {
        let work = PathText.parent(of: file) + "/.rebuild-\(package.name)-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: work) }
        try? FileManager.default.removeItem(atPath: work)
        let control = work + "/DEBIAN"
        do {
            try FileManager.default.createDirectory(atPath: control, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: work)
            let fields = package.fields.filter { !Self.installationFields.contains($0.name) }
            try write(fields.map { "\($0.name): \($0.text)\n" }.joined(), to: control + "/control", mode: 0o644)
            for (suffix, mode) in Self.controlFiles {
                guard let source = package.infoFile(suffix) else { continue }
                try FileManager.default.copyItem(atPath: source, toPath: control + "/" + suffix)
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: control + "/" + suffix)
            }
        } catch {
            throw APTKeepError("cannot write its control files: \(ErrorText.reason(error))")
        }
        let existing = try copyFiles(of: package, into: work)
        // A conffile the administrator deleted is not in the package: dpkg-deb would refuse a
        // list naming it.
        let conffiles = package.conffiles.filter { FileManager.default.fileExists(atPath: work + $0) }
        if !conffiles.isEmpty {
            do {
                try write(conffiles.map { $0 + "\n" }.joined(), to: control + "/conffiles", mode: 0o644)
            } catch {
                throw APTKeepError("cannot write its conffiles list: \(ErrorText.reason(error))")
            }
        }
        let build = SystemCommand.run([dpkgDeb, "-Zgzip", "-z1", "--build", work, file], environment: Self.dpkgDebEnvironment(for: file))
        guard build.status == 0 else {
            throw APTKeepError("dpkg-deb could not build it: \(Self.firstLine(build.stderr, otherwise: "exit status \(build.status)"))")
        }
        try verify(file, is: package, holdingAtLeast: existing)
    }

    /// Copies every path `info/P.list` names that exists under `root` into `work`, keeping
    /// modes, owners, times and symbolic links (`tar --no-recursion`: a folder brings only
    /// itself); returns how many there were.
    private func copyFiles(of package: APTInstalledPackage, into work: String) throws(APTKeepError) -> Int {
        guard let listFile = package.infoFile("list"), let list = try? String(contentsOfFile: listFile, encoding: .utf8) else {
            throw APTKeepError("dpkg has no list of its files (info/\(package.name).list)")
        }
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        let listed = list.split(separator: "\n").filter { $0 != "/." && $0.hasPrefix("/") }.map(String.init)
        // The folders the list has paths in.
        let parents = Set(listed.map { PathText.parent(of: $0) })
        var paths: [String] = []
        for path in listed {
            var info = stat()
            // A path the administrator removed (or a dpkg path-exclude kept out) is left out.
            guard lstat(base + path, &info) == 0 else { continue }
            // A folder of the package (paths are listed in it) that is a symbolic link to a
            // folder on this system (/lib -> usr/lib after the /usr merge) is a folder in the
            // package, as dpkg-repack makes it: copied as the link, the paths below it would
            // have nowhere to go. A link the package ships itself has nothing listed in it.
            if info.st_mode & S_IFMT == S_IFLNK, parents.contains(path), isFolder(base + path) {
                do {
                    try FileManager.default.createDirectory(atPath: work + path, withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o755])
                } catch {
                    throw APTKeepError("cannot make its folder \(path): \(ErrorText.reason(error))")
                }
                continue
            }
            paths.append("." + path)
        }
        let names = work + "/../.rebuild-\(package.name)-\(getpid()).paths"
        defer { try? FileManager.default.removeItem(atPath: names) }
        do {
            try write(paths.map { $0 + "\n" }.joined(), to: names, mode: 0o600)
        } catch {
            throw APTKeepError("cannot write its file list: \(ErrorText.reason(error))")
        }
        let copy = SystemCommand.run([
            "/bin/sh", "-c",
            "set -e; tar -C \"$1\" --numeric-owner --no-recursion -cf - -T \"$2\" | tar -C \"$3\" --numeric-owner --same-owner -xpf -",
            "sh", base.isEmpty ? "/" : base, names, work,
        ])
        guard copy.status == 0 else {
            throw APTKeepError("cannot copy its installed files: \(Self.firstLine(copy.stderr, otherwise: "exit status \(copy.status)"))")
        }
        return paths.count
    }

    /// Reads `file` back: the control must name the package, and the data hold every file
    /// copied (a wrong path makes an empty package that still installs, Documentation/PACKAGE-FACTS.md).
    private func verify(_ file: String, is package: APTInstalledPackage, holdingAtLeast files: Int) throws(APTKeepError) {
        let fields = SystemCommand.run([dpkgDeb, "-f", file, "Package", "Version", "Architecture"], environment: Self.dpkgDebEnvironment(for: file))
        let expected = "Package: \(package.name)\nVersion: \(package.version)\nArchitecture: \(package.architecture)"
        guard fields.status == 0, fields.stdout.trimmingWhitespace == expected else {
            throw APTKeepError("the rebuilt .deb does not read back as \(package.name) \(package.version) (\(package.architecture))")
        }
        let contents = SystemCommand.run([dpkgDeb, "--contents", file], environment: Self.dpkgDebEnvironment(for: file))
        let entries = contents.stdout.split(separator: "\n").count
        // dpkg-deb adds the top folder `./` to what was copied.
        guard contents.status == 0, entries >= files else {
            throw APTKeepError("the rebuilt .deb holds \(entries) paths of the \(files) installed")
        }
    }

    /// dpkg-deb's environment: `TMPDIR` the folder the kept file goes into, which exists.
    /// dpkg-deb makes its temporary files in TMPDIR as it builds (the control member) and reads
    /// a package back (`-f` extracts the control into a folder there); the TMPDIR installtop was
    /// given may name no folder (an ssh session's `SetEnv TMPDIR=…` for a folder Ansible makes
    /// on demand), and the run would be left without its kept versions after its job ran.
    private static func dpkgDebEnvironment(for file: String) -> [String: String] {
        ["TMPDIR": PathText.parent(of: file)]
    }

    /// Whether `path` is a folder, following symbolic links.
    private func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private func write(_ text: String, to path: String, mode: Int) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    static func firstLine(_ text: String, otherwise: String) -> String {
        text.split(separator: "\n").first.map { String($0).trimmingSpaces } ?? otherwise
    }
}
