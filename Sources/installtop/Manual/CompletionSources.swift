import ArgumentParser
import Monitor

/// What the shell completions offer where a command takes a manifest, a theme, a package to
/// install or an installed package.
enum CompletionSources {
    /// Manifest files (and folders to walk into).
    static let manifest = CompletionKind.file(extensions: ["yaml", "yml"])

    /// The ids `installtop themes` lists, read when the user presses Tab, so user themes added
    /// since the completion script was installed are offered too.
    static let theme = CompletionKind.custom { _, _, prefix in
        ThemeCatalog(userDirectory: ThemeCatalog.userDirectory()).themes.map(\.id).filter { $0.hasPrefix(prefix) }
    }

    /// The names of the packages apt knows, from its cache as it is (never rebuilt for a Tab);
    /// nothing where apt is missing.
    static let package = CompletionKind.shellCommand("apt-cache --no-generate pkgnames 2>/dev/null")

    /// The names of the packages installed on the machine, for `apt remove`: dpkg's status as it
    /// is (one dpkg-query, no apt cache), each name once whatever its architectures; nothing where
    /// dpkg is missing. dpkg-query reads DPKG_ADMINDIR's status when that is set.
    static let installedPackage = CompletionKind.shellCommand(
        #"dpkg-query -W -f='${db:Status-Status} ${Package}\n' 2>/dev/null | awk '$1 == "installed" && !seen[$2]++ { print $2 }'"#)
}
