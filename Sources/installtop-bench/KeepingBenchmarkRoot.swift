import Glibc
import InstallDrivers

/// The start of one upgrade in the keeping benchmarks: a fresh private root sharing the lab
/// `repository`, `names` installed at 1.0, and with `cachingOriginals` their 1.0 archives in
/// apt's cache as apt would have left them (so a keeper can link them). The caller removes it.
/// `nil`, having said why, when it cannot be made.
func keepingBenchmarkRoot(_ names: [String], repository: String, prefix: String, cachingOriginals: Bool) -> PrivateAPTRoot? {
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
