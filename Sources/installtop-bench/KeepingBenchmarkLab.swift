#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers

/// The lab both keeping benchmarks (`apt-keep`, `apt-keep-hooks`) upgrade in: a repository of
/// packages at 1.0 and 2.0, and a fresh root per upgrade with 1.0 installed.
enum KeepingBenchmarkLab {
    /// A repository with `names` at 1.0 and 2.0, each `megabytes` MiB of installed files (hex
    /// text: it compresses about 2:1 with gzip, as real payloads do, not to nothing). The
    /// caller removes it. `nil`, having said why, when it cannot be built, or when apt's tools
    /// are missing (the benchmark is skipped).
    static func repository(_ names: [String], megabytes: Int, prefix: String) -> PrivateAPTRoot? {
        do {
            try PrivateAPTRoot.requireTools()
        } catch {
            print("  skipped: \(error)")
            return nil
        }
        var generator = SystemRandomNumberGenerator()
        let contents = names.map { _ in
            let line = (0..<32).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined() + "\n"
            return String(repeating: line, count: megabytes * 1_048_576 / line.utf8.count)
        }
        let recipes = { (version: String) in
            names.enumerated().map { index, name in
                // With md5sums, as real packages are: a cached .deb is checked by them.
                var recipe = DebianPackageRecipe(name: name, version: version, files: ["/usr/share/keep-bench/\(name)": contents[index] + version])
                recipe.withMD5Sums = true
                return recipe
            }
        }
        do {
            let repository = try PrivateAPTRoot(temporaryWithPrefix: prefix)
            do {
                try repository.build(recipes("1.0") + recipes("2.0"))
                try repository.index()
            } catch {
                repository.remove()
                throw error
            }
            return repository
        } catch {
            print("  cannot build the packages: \(error)")
            return nil
        }
    }

    /// A fresh private root sharing `repository`, `names` installed at 1.0, and with
    /// `cachingOriginals` their 1.0 archives in apt's cache as apt would have left them (so a
    /// keeper can link them). The caller removes it. `nil`, having said why, when it cannot be
    /// made.
    static func rootAtVersionOne(_ names: [String], repository: String, prefix: String, cachingOriginals: Bool) -> PrivateAPTRoot? {
        let root: PrivateAPTRoot
        do {
            root = try PrivateAPTRoot(temporaryWithPrefix: prefix, sharing: repository)
            try root.update()
        } catch {
            print("  cannot make a private root: \(error)")
            return nil
        }
        let install = SystemCommand.run([PrivateAPTRoot.aptGet, "-y", "-q", "install"] + names.map { "\($0)=1.0" }, environment: root.environment)
        guard install.status == 0 else {
            print("  installing 1.0 failed: \(install.stderr)")
            root.remove()
            return nil
        }
        if cachingOriginals {
            for name in names {
                let deb = "\(name)_1.0_all.deb"
                _ = link(repository + "/" + deb, root.root + "/var/cache/apt/archives/" + deb)
            }
        }
        return root
    }
}
