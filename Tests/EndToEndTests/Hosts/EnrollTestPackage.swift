import APTTestSupport
import Foundation

/// An installtop package for `enroll`'s tests, built with `dpkg-deb` from the binaries under
/// test as `Scripts/build-deb` lays them out (both programs in /usr/bin, the unit `serve
/// --systemd-unit` prints in /lib/systemd/system, the maintainer scripts of Packaging/deb),
/// without the release build, the man pages and the completions, which take minutes here and
/// play no part in enrolling. `Depends` names a package of the hosts' own test repository, so
/// apt has something to resolve.
struct EnrollTestPackage {
    /// The .deb.
    let path: String
    /// What the installtop under test says with `--version`.
    let version: String

    /// Builds `installtop_VERSION_ARCH.deb` in `folder`.
    /// - Throws: when a command fails.
    init(installtop: String, depends: String, in folder: TestFolder) throws {
        guard let checkout = InstalltopBinary.packageRoot() else { throw EndToEndError.conditionNotMet("a Package.swift above \(#filePath)") }
        version = try TestCommand.check([installtop, "--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let debianVersion = version.replacingOccurrences(of: "-", with: "~")
        let architecture = try TestCommand.check(["/usr/bin/dpkg", "--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let tree = folder.file("installtop-package")
        let manager = FileManager.default
        for sub in ["/DEBIAN", "/usr/bin", "/lib/systemd/system"] {
            try manager.createDirectory(atPath: tree + sub, withIntermediateDirectories: true)
        }
        try manager.copyItem(atPath: installtop, toPath: tree + "/usr/bin/installtop")
        // As Scripts/build-deb ships it: the hooks' relay is installtop under another name.
        try manager.createSymbolicLink(atPath: tree + "/usr/bin/installtop-relay", withDestinationPath: "installtop")
        for script in ["postinst", "prerm", "postrm"] {
            try manager.copyItem(atPath: checkout + "/Packaging/deb/" + script, toPath: tree + "/DEBIAN/" + script)
        }
        try TestCommand.check([installtop, "serve", "--systemd-unit"]).stdout
            .write(toFile: tree + "/lib/systemd/system/installtop.service", atomically: true, encoding: .utf8)
        try """
            Package: installtop
            Version: \(debianVersion)
            Architecture: \(architecture)
            Maintainer: installtop tests <tests@invalid>
            Depends: \(depends)
            Description: installtop under test, for enroll's tests

            """.write(toFile: tree + "/DEBIAN/control", atomically: true, encoding: .utf8)
        path = folder.file("installtop_\(debianVersion)_\(architecture).deb")
        try TestCommand.check(["/usr/bin/dpkg-deb", "--root-owner-group", "-Zgzip", "-z1", "--build", tree, path])
        try manager.removeItem(atPath: tree)
    }
}
