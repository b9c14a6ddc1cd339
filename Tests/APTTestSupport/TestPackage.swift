import InstallDrivers

/// A small Debian package for tests: the product's `DebianPackageRecipe`, built offline by
/// `APTTestRoot.publish`. Its maintainer scripts must write only under `$DPKG_ROOT`
/// (Documentation/PACKAGE-FACTS.md: scripts run chrootless, on the host).
public typealias TestPackage = DebianPackageRecipe

extension TestPackage {
    /// lab-base, lab-app (which depends on it) and lab-kernel, whose postinst asks for a reboot
    /// the Debian way: apt installs them in that order, and only lab-kernel asks.
    public static let appAndRebootingKernel = [
        TestPackage(name: "lab-base"),
        TestPackage(name: "lab-app", depends: "lab-base"),
        TestPackage(name: "lab-kernel", postinst: TestPackage.rebootRequestingPostinst),
    ]
}
