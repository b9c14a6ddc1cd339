import InstallDrivers

/// A small Debian package for tests: the product's `DebianPackageRecipe`, built offline by
/// `APTTestRoot.publish`. Its maintainer scripts must write only under `$DPKG_ROOT`
/// (PACKAGES.md: scripts run chrootless, on the host).
public typealias TestPackage = DebianPackageRecipe
