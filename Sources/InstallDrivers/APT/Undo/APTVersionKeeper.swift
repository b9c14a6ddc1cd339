import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization
import TextBasics
import Glibc

/// Keeps the installed version of every package an apt job upgrades, downgrades or removes,
/// before dpkg touches it (Documentation/UNDO.md; rule 33): the .deb in apt's archive cache when it
/// is exactly the installed version, hard-linked (copied across file systems), otherwise one
/// rebuilt from the installed package (`DebianPackageRebuilder`).
///
/// A cached .deb counts as the installed version when its control names the same package,
/// version and architecture dpkg has fully installed (`ii`) and its `md5sums` equal dpkg's
/// `info/P.md5sums` (the same build, not just the same version string). Installs and
/// reinstalls replace no other version: nothing is kept for them.
public struct APTVersionKeeper: Sendable {
    /// The root, dpkg's database and apt's archive cache.
    public var environment: APTEnvironment
    public var dpkgDeb: String
    public var dpkgQuery: String

    public init(environment: APTEnvironment, dpkgDeb: String = "/usr/bin/dpkg-deb", dpkgQuery: String = "/usr/bin/dpkg-query") {
        self.environment = environment
        self.dpkgDeb = dpkgDeb
        self.dpkgQuery = dpkgQuery
    }

    /// Whether `change` replaces an installed version that an undo would put back.
    public static func replacesInstalledVersion(_ change: PackageChange) -> Bool {
        change.oldVersion != nil && (change.action == .upgrade || change.isRemoval)
    }

    /// Keeps the replaced version of each of `changes` that has one into `folder` (created with
    /// its missing parents, mode 0700), packages in parallel on two threads; one result per
    /// such package, in `changes`' order. Never throws: a package that cannot be kept gets
    /// `.notKept` with the reason, and the others are kept all the same.
    public func keep(_ changes: [PackageChange], into folder: String) -> [APTKeptVersion] {
        let replacing = changes.filter(Self.replacesInstalledVersion)
        guard !replacing.isEmpty else { return [] }
        do {
            try Self.makePrivateFolder(folder)
        } catch {
            return replacing.map {
                APTKeptVersion(package: $0.package, version: $0.oldVersion ?? "", architecture: $0.architecture,
                               outcome: .notKept(reason: "cannot make \(folder): \(ErrorText.reason(error))"))
            }
        }
        // Read before dpkg runs: a package the run removes loses its mark with it (rule 36).
        let automatic = APTAutoMarks.automaticIfKnown(in: environment)
        // One query for all: dpkg-query parses the whole database each time it runs.
        let installed = APTInstalledPackage.readAll(replacing.map(\.package), administrativeDirectory: environment.administrativeDirectory,
                                                    dpkgQuery: dpkgQuery)
        let results = Mutex([APTKeptVersion?](repeating: nil, count: replacing.count))
        // Two at a time: a rebuild is mostly gzip on one core, a cache hit a few small reads.
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(2, replacing.count)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < replacing.count else { return }
                let change = replacing[index]
                // A Multi-Arch: same package is installed once per architecture.
                let same = installed.filter { $0.name == change.package }
                let package = same.first { $0.architecture == change.architecture } ?? same.first
                var kept = keepOne(change, installed: package, into: folder)
                kept.automatic = automatic.map { $0.contains(kept.package) }
                results.withLock { $0[index] = kept }
            }
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// The folder and its missing parents with mode 0700: kept packages may hold anything the
    /// installed ones did (readable by root only, some of it).
    public static func makePrivateFolder(_ folder: String) throws {
        var missing: [String] = []
        var path = folder
        while !path.isEmpty, path != "/", !FileManager.default.fileExists(atPath: path) {
            missing.append(path)
            path = PathText.parent(of: path)
        }
        for each in missing.reversed() {
            guard mkdir(each, 0o700) == 0 || errno == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        guard chmod(folder, 0o700) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    private func keepOne(_ change: PackageChange, installed: APTInstalledPackage?, into folder: String) -> APTKeptVersion {
        let version = change.oldVersion ?? ""
        guard let installed else {
            return APTKeptVersion(package: change.package, version: version, architecture: change.architecture,
                                  outcome: .notKept(reason: "dpkg does not know it"))
        }
        func result(_ outcome: APTKeptVersion.Outcome) -> APTKeptVersion {
            // dpkg's hashes of the originals, for an undo from a rebuilt .deb (rule 36).
            let conffiles = Dictionary(installed.conffileHashes.map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
            return APTKeptVersion(package: change.package, version: version, architecture: installed.architecture, outcome: outcome,
                                  conffiles: conffiles)
        }
        guard installed.isFullyInstalled, installed.version == version else {
            return result(.notKept(reason: "dpkg has \(installed.version) (\(installed.status)), not \(version) fully installed"))
        }
        let file = folder + "/" + installed.debFileName
        if let cached = cachedDeb(of: installed) {
            do {
                try Self.linkOrCopy(cached, to: file)
                return result(.kept(file: file, size: Self.size(of: file), source: .archiveCache))
            } catch {
                // The rebuild below still keeps it.
            }
        }
        do throws(APTKeepError) {
            try DebianPackageRebuilder(root: environment.root, dpkgDeb: dpkgDeb).rebuild(installed, into: file)
            return result(.kept(file: file, size: Self.size(of: file), source: .rebuilt))
        } catch {
            try? FileManager.default.removeItem(atPath: file)
            return result(.notKept(reason: error.reason))
        }
    }

    /// The archive cache's .deb of exactly `installed`, or `nil`. Its control area is read
    /// with one `dpkg-deb --ctrl-tarfile` (a cache hit is on the way to dpkg's first run).
    func cachedDeb(of installed: APTInstalledPackage) -> String? {
        guard let cache = environment.archiveCache else { return nil }
        let path = (cache.hasSuffix("/") ? cache : cache + "/") + installed.debFileName
        return isSameBuild(path, as: installed) ? path : nil
    }

    /// Whether the .deb at `path` is exactly `installed`: the same package, version and
    /// architecture in its control, and the same files by dpkg's recorded checksums.
    func isSameBuild(_ path: String, as installed: APTInstalledPackage) -> Bool {
        guard FileManager.default.fileExists(atPath: path),
              let tar = SystemCommand.stdoutBytes(of: [dpkgDeb, "--ctrl-tarfile", path]) else { return false }
        let members = TarArchive(tar).files(named: ["control", "md5sums"])
        guard let control = members["control"].map({ APTInstalledPackage.parse(String(decoding: $0, as: UTF8.self),
                                                                             administrativeDirectory: "") }),
              let control, control.name == installed.name, control.version == installed.version,
              control.architecture == installed.architecture else { return false }
        // The same version string rebuilt differently (a local rebuild, a re-upload) would put
        // back other files: the build's checksums must be the installed ones.
        guard let installedSums = installed.infoFile("md5sums").flatMap({ try? String(contentsOfFile: $0, encoding: .utf8) }) else {
            return true
        }
        if let debSums = members["md5sums"] { return String(decoding: debSums, as: UTF8.self) == installedSums }
        // A .deb without its own md5sums (dpkg computed the installed ones): two of its files'
        // contents against dpkg's sums.
        for line in installedSums.split(separator: "\n").prefix(Self.filesChecked) {
            guard let space = line.firstIndex(of: " ") else { continue }
            let sum = String(line[..<space])
            let file = line[space...].drop { $0 == " " }
            let read = SystemCommand.run(["/bin/sh", "-c", "\"$1\" --fsys-tarfile \"$2\" | tar -xOf - \"./$3\" | md5sum",
                                          "sh", dpkgDeb, path, String(file)])
            guard read.status == 0, read.stdout.hasPrefix(sum + " ") else { return false }
        }
        return true
    }

    /// How many files of a cached .deb without md5sums are checked against dpkg's sums.
    static let filesChecked = 2

    /// A hard link when `source` and `target` share a file system (no bytes copied), else a copy.
    static func linkOrCopy(_ source: String, to target: String) throws {
        try? FileManager.default.removeItem(atPath: target)
        if link(source, target) == 0 { return }
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }

    static func size(of file: String) -> Int64 {
        var info = stat()
        return stat(file, &info) == 0 ? Int64(info.st_size) : 0
    }
}
