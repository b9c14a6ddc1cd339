import ArgumentParser
import InstallDrivers
import RestartScan
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics
import Glibc

/// The installtop package `enroll` copies to each host: `--package FILE.deb`, else this
/// version's package where `Scripts/build-deb` leaves it. Its version must be this installtop's,
/// since the board expects its own version on every host.
struct EnrollPackage: Sendable {
    /// Where the file is on this machine.
    let path: String
    /// Its version, this installtop's.
    let version: ExpectedVersion
    /// Its size in bytes, for the progress line.
    let size: Int

    /// The file's name on the host: `installtop_0.2.0_amd64.deb`.
    var fileName: String { URL(fileURLWithPath: path).lastPathComponent }

    /// The folders searched, in order, for `installtop_VERSION_ARCH.deb` without `--package`:
    /// `.build/deb` of the working directory (`Scripts/build-deb`'s default, run in the
    /// checkout), the `deb` folder beside the running binary's build folder
    /// (`.build/release/installtop` finds `.build/deb`), the `deb` folder of the `.build` the
    /// binary is in (its path resolved: `.build/x86_64-unknown-linux-gnu/release/installtop`
    /// finds `.build/deb` too), and apt's archive cache.
    static func searchedFolders(executable: String?) -> [String] {
        var folders = [FileManager.default.currentDirectoryPath + "/.build/deb"]
        if let executable {
            let buildFolder = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent().path
            folders.append(buildFolder + "/deb")
            // SwiftPM's `.build/release` is a link to `.build/x86_64-unknown-linux-gnu/release`,
            // resolved in the binary's path: the checkout's `.build/deb` is one more level up.
            let components = URL(fileURLWithPath: executable).pathComponents
            if let build = components.lastIndex(of: ".build") {
                folders.append("/" + components[1...build].joined(separator: "/") + "/deb")
            }
        }
        folders.append("/var/cache/apt/archives")
        var seen = Set<String>()
        return folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.filter { seen.insert($0).inserted }
    }

    /// `given`, or this version's package found in `searchedFolders`.
    /// - Throws: `ValidationError` (exit 2) when no package is found (naming where it looked,
    ///   `Scripts/build-deb` and `--package`), when the file is no installtop package, or when
    ///   it holds another version than this installtop's.
    static func locate(given: String?, version: ExpectedVersion = .current) throws -> EnrollPackage {
        let debianVersion = version.debian
        let path: String
        if let given {
            path = URL(fileURLWithPath: given).standardizedFileURL.path
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw ValidationError("cannot read --package \(given)")
            }
        } else {
            let architecture = SystemCommand.run(["/usr/bin/dpkg", "--print-architecture"]).stdout
                .trimmingWhitespace
            let name = "installtop_\(debianVersion)_\(architecture.isEmpty ? "amd64" : architecture).deb"
            let folders = searchedFolders(executable: ProcFS().ownExecutable())
            guard let found = folders.map({ $0 + "/" + name }).first(where: FileManager.default.isReadableFile(atPath:)) else {
                throw ValidationError("""
                    no \(name) in \(folders.joined(separator: ", ")): build it with Scripts/build-deb in \
                    installtop's checkout, or give --package FILE.deb
                    """)
            }
            path = found
        }
        let fields = SystemCommand.run(["/usr/bin/dpkg-deb", "--showformat=${Package}\\n${Version}\\n", "--show", path])
        let lines = fields.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard fields.status == 0, lines.count >= 2 else {
            throw ValidationError("\(path) is no Debian package dpkg-deb can read: \(fields.stderr.trimmingWhitespace)")
        }
        guard lines[0] == "installtop" else { throw ValidationError("\(path) is the package \(lines[0]), not installtop") }
        guard lines[1] == debianVersion else {
            throw ValidationError("""
                \(path) is installtop \(lines[1]) and this installtop is \(version.installtop): the board expects its own \
                version on every host; give the package of \(debianVersion) (Scripts/build-deb)
                """)
        }
        // stat's size: FoundationEssentials gives `.size` as a UInt, which `as? Int` misses.
        var file = stat()
        let size = stat(path, &file) == 0 ? Int(file.st_size) : 0
        return EnrollPackage(path: path, version: version, size: size)
    }
}
